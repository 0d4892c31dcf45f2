// sort.js - %TypedArray%.prototype.sort and toSorted without a comparator,
// in steps a stop can end. The engine sorts a typed array in one native
// call that no interrupt, time limit or close() reaches: 4e7 numbers took
// seconds past a 200 ms limit, and the sort then returned normally. Here an
// array of SPLIT elements or more is cut into runs of RUN elements, each
// sorted by the engine (a few milliseconds), and the runs are merged in JS,
// whose loops the watchdog's tick stops like any other. Smaller arrays and
// calls with a comparator (the engine's own JS sort, which stops) go to the
// engine as before. The order is the engine's: numeric, -0 before +0, NaN
// last, BigInts by value. Built-ins are captured here, at start-up.
(function (native, internal) {
  'use strict';
  const TA = Object.getPrototypeOf(Int8Array);
  const P = TA.prototype;
  const FP = Function.prototype, uncurry = (f) => FP.bind.call(FP.call, f);
  const gopd = Object.getOwnPropertyDescriptor, defineProp = Object.defineProperty;
  const nativeSort = P.sort, nativeToSorted = P.toSorted;
  const sortOf = uncurry(nativeSort);
  const toSortedOf = typeof nativeToSorted === 'function' ? uncurry(nativeToSorted) : null;
  const lengthOf = uncurry(gopd(P, 'length').get);
  const bufferOf = uncurry(gopd(P, 'buffer').get);
  const offsetOf = uncurry(gopd(P, 'byteOffset').get);
  const tagOf = uncurry(gopd(P, Symbol.toStringTag).get);
  const setOf = uncurry(P.set);
  const isFn = (f) => typeof f === 'function';
  /* the constructors by the tag the engine reads from the internal slot
   * (a script can change an array's prototype or constructor, not this) */
  const CTORS = {};
  for (const C of [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
    Float32Array, Float64Array, BigInt64Array, BigUint64Array]) {
    CTORS[C.name] = C;
  }
  if (typeof Float16Array === 'function') CTORS.Float16Array = Float16Array;
  const FLOAT = { Float16Array: true, Float32Array: true, Float64Array: true };
  const SPLIT = 1 << 18;   /* arrays below this go to the engine whole */
  const RUN = 1 << 15;     /* what the engine sorts in one call (about a millisecond) */

  /* Merges the sorted runs a[lo, mid) and a[mid, hi) into b[lo, hi).
   * Integers and BigInts: plain <. */
  function mergeInts(a, b, lo, mid, hi) {
    let i = lo, j = mid, k = lo;
    while (i < mid && j < hi) {
      const x = a[i], y = a[j];
      if (y < x) { b[k++] = y; j++; } else { b[k++] = x; i++; }
    }
    while (i < mid) b[k++] = a[i++];
    while (j < hi) b[k++] = a[j++];
  }
  /* Floats: y goes first when y < x, or y is -0 and x +0, or x is NaN and
   * y is not (NaN last, -0 before +0, as the engine orders them). */
  function mergeFloats(a, b, lo, mid, hi) {
    let i = lo, j = mid, k = lo;
    while (i < mid && j < hi) {
      const x = a[i], y = a[j];
      if (y < x || (x !== x && y === y) || (y === 0 && x === 0 && 1 / y < 0 && 1 / x > 0)) {
        b[k++] = y; j++;
      } else {
        b[k++] = x; i++;
      }
    }
    while (i < mid) b[k++] = a[i++];
    while (j < hi) b[k++] = a[j++];
  }

  /* Sorts typed array a (length n >= SPLIT, of kind tag) in runs and merges. */
  function sortInSteps(a, n, tag) {
    const C = CTORS[tag];
    const buf = bufferOf(a), off = offsetOf(a), size = C.BYTES_PER_ELEMENT;
    for (let lo = 0; lo < n; lo += RUN) sortOf(new C(buf, off + lo * size, (n - lo < RUN ? n - lo : RUN)));
    const merge = FLOAT[tag] ? mergeFloats : mergeInts;
    let src = a, dst = new C(n);
    for (let width = RUN; width < n; width *= 2) {
      for (let lo = 0; lo < n; lo += 2 * width) {
        const mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
        merge(src, dst, lo, mid, hi);
      }
      const t = src; src = dst; dst = t;
    }
    if (src !== a) setOf(a, src);
    return a;
  }

  const methods = {
    sort(comparefn) {
      if (comparefn !== undefined) return sortOf(this, comparefn);
      const n = lengthOf(this);   /* a TypeError for a receiver that is no typed array */
      if (n < SPLIT) return sortOf(this);
      return sortInSteps(this, n, tagOf(this));
    },
    toSorted(comparefn) {
      if (comparefn !== undefined && !isFn(comparefn)) return toSortedOf(this, comparefn);
      const n = lengthOf(this);
      if (comparefn !== undefined || n < SPLIT) return toSortedOf(this, comparefn);
      const tag = tagOf(this);
      const copy = new CTORS[tag](n);
      setOf(copy, this);
      return sortInSteps(copy, n, tag);
    },
  };
  defineProp(P, 'sort', { value: methods.sort, writable: true, enumerable: false, configurable: true });
  if (toSortedOf) defineProp(P, 'toSorted', { value: methods.toSorted, writable: true, enumerable: false, configurable: true });
});
