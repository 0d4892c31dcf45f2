// inspect.js - value formatting after the rules of Node's util.inspect and
// util.format: depth 2, single quotes inside objects, <ref *N> / [Circular *N]
// for cycles, 100 array items at most, entries joined on one line while they
// fit 80 columns, arrays of more than 6 short items grouped into columns.
// Leaves internal.inspect(value, options) and internal.format(args) for
// console.js, the launcher (strait_inspect) and error reports.
(function (native, internal) {
  'use strict';

  const kObjectType = 0;
  const kArrayExtrasType = 1;
  const identRe = /^[a-zA-Z_][a-zA-Z_0-9]*$/;
  const customInspect = Symbol.for('nodejs.util.inspect.custom');
  const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
  const objToString = (v) => Object.prototype.toString.call(v);
  const propIsEnum = (o, k) => Object.prototype.propertyIsEnumerable.call(o, k);

  // Getters of built-in prototypes: calling one on a foreign object throws,
  // which makes a brand check that a faked Symbol.toStringTag cannot fool.
  const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
  const mapSize = getter(Map.prototype, 'size');
  const setSize = getter(Set.prototype, 'size');
  const bufferLength = getter(ArrayBuffer.prototype, 'byteLength');
  const typedArrayProto = Object.getPrototypeOf(Uint8Array.prototype);
  const typedArrayTag = getter(typedArrayProto, Symbol.toStringTag);
  const regexpSource = getter(RegExp.prototype, 'source');

  function brand(fn, v) {
    try { fn.call(v); return true; } catch (e) { return false; }
  }
  // The cheap tag test first, so plain objects cost no thrown exception.
  const isMap = (v) => objToString(v) === '[object Map]' && brand(mapSize, v);
  const isSet = (v) => objToString(v) === '[object Set]' && brand(setSize, v);
  const isArrayBuffer = (v) => objToString(v) === '[object ArrayBuffer]' && brand(bufferLength, v);
  const isRegExp = (v) => objToString(v) === '[object RegExp]' && brand(regexpSource, v);
  const isDate = (v) => objToString(v) === '[object Date]' && brand(Date.prototype.getTime, v);
  const isTypedArray = (v) => typedArrayTag.call(v) !== undefined;
  const isError = (v) => v instanceof Error || objToString(v) === '[object Error]';

  // The boxed primitive's kind and its valueOf, or null.
  function boxed(v) {
    if (!/^\[object (Number|String|Boolean|Symbol|BigInt)\]$/.test(objToString(v))) return null;
    const kinds = [[Number, 'Number'], [String, 'String'], [Boolean, 'Boolean'],
      [Symbol, 'Symbol'], [BigInt, 'BigInt']];
    for (const [ctor, name] of kinds) {
      try { return [name, ctor.prototype.valueOf.call(v)]; } catch (e) { /* not this kind */ }
    }
    return null;
  }

  const meta = [];
  for (let i = 0; i < 0x20; i++) meta.push('\\x' + i.toString(16).toUpperCase().padStart(2, '0'));
  meta[8] = '\\b'; meta[9] = '\\t'; meta[10] = '\\n'; meta[12] = '\\f'; meta[13] = '\\r';

  // Quotes a string: single quotes unless it contains one, then double
  // quotes, then backticks; control characters and lone surrogates escaped.
  function strEscape(str) {
    let quote = "'";
    if (str.includes("'")) {
      if (!str.includes('"')) quote = '"';
      else if (!str.includes('`') && !str.includes('${')) quote = '`';
    }
    let out = '';
    for (let i = 0; i < str.length; i++) {
      const c = str.charCodeAt(i);
      if (c < 0x20) out += meta[c];
      else if (c === 0x7f) out += '\\x7F';
      else if (c === 0x5c) out += '\\\\';
      else if (c === 0x27 && quote === "'") out += "\\'";
      else if (c >= 0xd800 && c <= 0xdfff) {
        const next = str.charCodeAt(i + 1);
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) { out += str[i] + str[i + 1]; i++; }
        else out += '\\u' + c.toString(16).toUpperCase();
      } else out += str[i];
    }
    return quote + out + quote;
  }

  function formatNumber(n) {
    return Object.is(n, -0) ? '-0' : `${n}`;
  }

  function formatPrimitive(ctx, value) {
    switch (typeof value) {
      case 'string': {
        let trailer = '';
        if (value.length > ctx.maxStringLength) {
          const remaining = value.length - ctx.maxStringLength;
          value = value.slice(0, ctx.maxStringLength);
          trailer = `... ${remaining} more character${remaining > 1 ? 's' : ''}`;
        }
        if (value.length > 16 && value.length > ctx.breakLength - ctx.indentationLvl - 4) {
          const lines = value.split(/(?<=\n)/);
          if (lines.length > 1) {
            const indent = ' '.repeat(ctx.indentationLvl);
            return lines.map(strEscape).join(` +\n${indent}  `) + trailer;
          }
        }
        return strEscape(value) + trailer;
      }
      case 'number': return formatNumber(value);
      case 'bigint': return `${value}n`;
      case 'symbol': return Symbol.prototype.toString.call(value);
      default: return `${value}`;
    }
  }

  // Name of the nearest constructor on the prototype chain, or null for an
  // object without one (null prototype).
  function getConstructorName(obj) {
    let o = obj;
    while (o !== null && o !== undefined) {
      let d;
      try { d = Object.getOwnPropertyDescriptor(o, 'constructor'); } catch (e) { return null; }
      if (d !== undefined && typeof d.value === 'function' && d.value.name !== '') {
        return String(d.value.name);
      }
      o = Object.getPrototypeOf(o);
    }
    return null;
  }

  function getPrefix(constructor, tag, fallback, size = '') {
    if (constructor === null) {
      if (tag !== '' && fallback !== tag) return `[${fallback}${size}: null prototype] [${tag}] `;
      return `[${fallback}${size}: null prototype] `;
    }
    if (tag !== '' && constructor !== tag) return `${constructor}${size} [${tag}] `;
    return `${constructor}${size} `;
  }

  const isIndex = (k) => typeof k === 'string' && /^(0|[1-9][0-9]*)$/.test(k) && +k < 4294967295;

  // Own keys to show: enumerable strings and symbols (all of them with
  // showHidden), without array indices when nonIndex is set.
  function getKeys(value, showHidden, nonIndex) {
    let keys;
    const symbols = Object.getOwnPropertySymbols(value);
    if (showHidden) {
      keys = Object.getOwnPropertyNames(value).concat(symbols);
    } else {
      keys = Object.keys(value);
      for (const s of symbols) if (propIsEnum(value, s)) keys.push(s);
    }
    if (nonIndex) keys = keys.filter((k) => !isIndex(k));
    return keys;
  }

  function getFunctionBase(value, constructor, tag) {
    let src = '';
    try { src = Function.prototype.toString.call(value); } catch (e) { /* proxy */ }
    if (src.startsWith('class') && src.endsWith('}')) {
      const name = (hasOwn(value, 'name') && value.name) || '(anonymous)';
      let base = `class ${name}`;
      if (constructor !== 'Function' && constructor !== null) base += ` [${constructor}]`;
      if (tag !== '' && constructor !== tag) base += ` [${tag}]`;
      if (constructor !== null) {
        const superName = Object.getPrototypeOf(value).name;
        if (superName) base += ` extends ${superName}`;
      } else {
        base += ' extends [null prototype]';
      }
      return `[${base}]`;
    }
    const kinds = ['AsyncFunction', 'GeneratorFunction', 'AsyncGeneratorFunction'];
    const type = kinds.includes(constructor) ? constructor : 'Function';
    let base = `[${type}`;
    if (constructor === null) base += ' (null prototype)';
    base += value.name === '' ? ' (anonymous)' : `: ${value.name}`;
    base += ']';
    if (constructor !== type && constructor !== null && constructor !== 'Function') {
      base += ` ${constructor}`;
    }
    if (tag !== '' && constructor !== tag) base += ` [${tag}]`;
    return base;
  }

  // One JSC stack frame ("fn@file:line:col", "@file:line:col",
  // "global code@file:line:col", "fn@[native code]") as a Node-style line.
  function frameLine(frame) {
    const at = frame.indexOf('@');
    if (at < 0) return `    at ${frame}`;
    const fn = frame.slice(0, at);
    let where = frame.slice(at + 1);
    if (where === '[native code]') where = 'native';
    const line1 = /^(.*):1:(\d+)$/.exec(where);
    if (line1 !== null && typeof internal.wrapOffset === 'function') {
      const col = Number(line1[2]) - internal.wrapOffset(line1[1]);
      if (col > 0) where = `${line1[1]}:1:${col}`;
    }
    if (fn === '' || fn === 'global code' || fn === 'module code') return `    at ${where}`;
    return `    at ${fn} (${where})`;
  }

  // Node-style text of a JSC stack string: one "    at ..." line per frame.
  // The frame of the host function an entry or a microtask checkpoint of
  // the runtime runs in (src/core/eval.c) is the runtime's, not the
  // script's: left out.
  const ENTRY_FRAME = native.entryFrame;
  function stackLines(stack) {
    if (typeof stack !== 'string' || stack === '') return '';
    return stack.split('\n').filter((l) => l !== '' && l !== ENTRY_FRAME).map(frameLine).join('\n');
  }

  function errorHeader(err, constructor, tag) {
    let name, message;
    try { name = err.name != null ? String(err.name) : 'Error'; } catch (e) { name = 'Error'; }
    try { message = err.message != null ? String(err.message) : ''; } catch (e) { message = ''; }
    let head = name;
    if (constructor === null) head = `[${name}: null prototype]`;
    else if (name.endsWith('Error') && constructor !== name) {
      head = constructor.includes(name) ? constructor : `${constructor} [${name}]`;
    }
    if (tag !== '' && tag !== constructor && tag !== name) head += ` [${tag}]`;
    return message !== '' ? `${head}: ${message}` : head;
  }

  function formatError(err, constructor, tag, ctx, keys) {
    let stack;
    try { stack = err.stack; } catch (e) { stack = undefined; }
    let text = errorHeader(err, constructor, tag);
    const frames = stackLines(stack);
    if (frames !== '') text += '\n' + frames;
    // Keys the text already shows, and JSC's location properties.
    for (const k of ['name', 'message', 'stack', 'line', 'column', 'sourceURL']) {
      const i = keys.indexOf(k);
      if (i === -1) continue;
      let shown = true;
      if (k === 'name' || k === 'message') {
        try { shown = text.includes(String(err[k])); } catch (e) { shown = false; }
      }
      if (shown) keys.splice(i, 1);
    }
    if (ctx.indentationLvl !== 0) {
      text = text.split('\n').join(`\n${' '.repeat(ctx.indentationLvl)}`);
    }
    return text;
  }

  function formatValue(ctx, value, recurseTimes, typedArray) {
    if (typeof value !== 'object' && typeof value !== 'function') {
      return formatPrimitive(ctx, value);
    }
    if (value === null) return 'null';
    if (ctx.customInspect) {
      let custom;
      try { custom = value[customInspect]; } catch (e) { custom = undefined; }
      if (typeof custom === 'function' && custom !== inspect) {
        const depth = ctx.depth === Infinity ? null : ctx.depth - recurseTimes;
        const ret = custom.call(value, depth, Object.assign({}, ctx.options), inspect);
        if (ret !== value) {
          if (typeof ret !== 'string') return formatValue(ctx, ret, recurseTimes);
          return ret.split('\n').join(`\n${' '.repeat(ctx.indentationLvl)}`);
        }
      }
    }
    if (ctx.seen.includes(value)) {
      let index = 1;
      if (ctx.circular === undefined) {
        ctx.circular = new Map([[value, index]]);
      } else {
        index = ctx.circular.get(value);
        if (index === undefined) {
          index = ctx.circular.size + 1;
          ctx.circular.set(value, index);
        }
      }
      return `[Circular *${index}]`;
    }
    return formatRaw(ctx, value, recurseTimes, typedArray);
  }

  function formatRaw(ctx, value, recurseTimes, typedArray) {
    let keys;
    const constructor = getConstructorName(value);
    let tag = '';
    try { tag = value[Symbol.toStringTag]; } catch (e) { tag = ''; }
    if (typeof tag !== 'string' || (tag !== '' && hasOwn(value, Symbol.toStringTag) &&
        propIsEnum(value, Symbol.toStringTag))) {
      tag = '';
    }
    let base = '';
    let formatter = () => [];
    let braces;
    let extrasType = kObjectType;
    let noIterator = true;

    if (Array.isArray(value)) {
      noIterator = false;
      const prefix = (constructor !== 'Array' || tag !== '')
        ? getPrefix(constructor, tag, 'Array', `(${value.length})`) : '';
      keys = getKeys(value, ctx.showHidden, true);
      braces = [`${prefix}[`, ']'];
      if (value.length === 0 && keys.length === 0) return `${braces[0]}]`;
      extrasType = kArrayExtrasType;
      formatter = formatArray;
    } else if (isSet(value)) {
      noIterator = false;
      const size = setSize.call(value);
      const prefix = getPrefix(constructor, tag, 'Set', `(${size})`);
      keys = getKeys(value, ctx.showHidden);
      formatter = formatSet;
      if (size === 0 && keys.length === 0) return `${prefix}{}`;
      braces = [`${prefix}{`, '}'];
    } else if (isMap(value)) {
      noIterator = false;
      const size = mapSize.call(value);
      const prefix = getPrefix(constructor, tag, 'Map', `(${size})`);
      keys = getKeys(value, ctx.showHidden);
      formatter = formatMap;
      if (size === 0 && keys.length === 0) return `${prefix}{}`;
      braces = [`${prefix}{`, '}'];
    } else if (isTypedArray(value)) {
      noIterator = false;
      keys = getKeys(value, ctx.showHidden, true);
      const fallback = typedArrayTag.call(value);
      const prefix = getPrefix(constructor, tag, fallback, `(${value.length})`);
      braces = [`${prefix}[`, ']'];
      if (value.length === 0 && keys.length === 0) return `${braces[0]}]`;
      formatter = formatTypedArray;
      extrasType = kArrayExtrasType;
    }
    if (noIterator) {
      keys = getKeys(value, ctx.showHidden);
      braces = ['{', '}'];
      if (constructor === 'Object' && objToString(value) === '[object Arguments]') {
        keys = getKeys(value, ctx.showHidden, true);
        braces[0] = '[Arguments] [';
        braces[1] = ']';
        extrasType = kArrayExtrasType;
        formatter = formatArray;
        if (value.length === 0 && keys.length === 0) return '[Arguments] []';
      } else if (constructor === 'Object') {
        if (tag !== '') braces[0] = `${getPrefix(constructor, tag, 'Object')}{`;
        if (keys.length === 0) return `${braces[0]}}`;
      } else if (typeof value === 'function') {
        base = getFunctionBase(value, constructor, tag);
        if (ctx.showHidden) keys = keys.filter((k) => k !== 'arguments' && k !== 'caller');
        if (keys.length === 0) return base;
      } else if (isRegExp(value)) {
        base = RegExp.prototype.toString.call(value);
        const prefix = getPrefix(constructor, tag, 'RegExp');
        if (prefix !== 'RegExp ') base = `${prefix}${base}`;
        if (ctx.showHidden) keys = keys.filter((k) => k !== 'lastIndex');
        if (keys.length === 0) return base;
      } else if (isDate(value)) {
        const t = Date.prototype.getTime.call(value);
        base = Number.isNaN(t) ? 'Invalid Date' : Date.prototype.toISOString.call(value);
        const prefix = getPrefix(constructor, tag, 'Date');
        if (prefix !== 'Date ') base = `${prefix}${base}`;
        if (keys.length === 0) return base;
      } else if (isError(value)) {
        base = formatError(value, constructor, tag, ctx, keys);
        if (keys.length === 0) return base;
      } else if (isArrayBuffer(value)) {
        const prefix = getPrefix(constructor, tag, 'ArrayBuffer');
        formatter = formatArrayBuffer;
        braces[0] = `${prefix}{`;
        keys.unshift('byteLength');
      } else if (objToString(value) === '[object Promise]') {
        braces[0] = `${getPrefix(constructor, tag, 'Promise')}{`;
        formatter = () => ['<state unknown>'];
      } else if (objToString(value) === '[object WeakMap]' || objToString(value) === '[object WeakSet]') {
        braces[0] = `${getPrefix(constructor, tag, constructor || 'Object')}{`;
        formatter = () => ['<items unknown>'];
      } else {
        const box = typeof value === 'object' ? boxed(value) : null;
        if (box !== null) {
          const [kind, prim] = box;
          base = `[${kind}`;
          if (kind !== constructor) base += constructor === null ? ' (null prototype)' : ` (${constructor})`;
          const inner = formatPrimitive(Object.assign({}, ctx, { indentationLvl: 0, breakLength: Infinity }), prim);
          base += `: ${inner}]`;
          if (tag !== '' && tag !== constructor) base += ` [${tag}]`;
          if (kind === 'String') keys = keys.filter((k) => !isIndex(k) && k !== 'length');
          if (keys.length === 0) return base;
        } else {
          if (keys.length === 0) return `${getPrefix(constructor, tag, 'Object')}{}`;
          braces[0] = `${getPrefix(constructor, tag, 'Object')}{`;
        }
      }
    }

    if (recurseTimes > ctx.depth) {
      let name = getPrefix(constructor, tag, 'Object').slice(0, -1);
      if (Array.isArray(value)) name = getPrefix(constructor, tag, 'Array').slice(0, -1);
      return constructor !== null ? `[${name}]` : name;
    }
    recurseTimes += 1;
    ctx.seen.push(value);
    ctx.currentDepth = recurseTimes;
    let output;
    try {
      output = formatter(ctx, value, recurseTimes);
      for (let i = 0; i < keys.length; i++) {
        output.push(formatProperty(ctx, value, recurseTimes, keys[i], kObjectType));
      }
    } catch (err) {
      ctx.seen.pop();
      if (err instanceof RangeError) {
        return `[${constructor || 'Object'}: Inspection interrupted prematurely. Maximum call stack size exceeded.]`;
      }
      throw err;
    }
    ctx.seen.pop();
    if (ctx.circular !== undefined) {
      const index = ctx.circular.get(value);
      if (index !== undefined) {
        const reference = `<ref *${index}>`;
        base = base === '' ? reference : `${reference} ${base}`;
      }
    }
    return reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value);
  }

  function formatProperty(ctx, value, recurseTimes, key, type) {
    let desc;
    try {
      desc = Object.getOwnPropertyDescriptor(value, key) || { value: value[key], enumerable: true };
    } catch (e) {
      desc = { value: undefined, enumerable: true };
    }
    let str;
    if (desc.value !== undefined) {
      ctx.indentationLvl += 2;
      str = formatValue(ctx, desc.value, recurseTimes);
      ctx.indentationLvl -= 2;
    } else if (desc.get !== undefined) {
      str = desc.set !== undefined ? '[Getter/Setter]' : '[Getter]';
    } else if (desc.set !== undefined) {
      str = '[Setter]';
    } else {
      str = 'undefined';
    }
    if (type === kArrayExtrasType) return str;
    let name;
    if (typeof key === 'symbol') name = `[${Symbol.prototype.toString.call(key)}]`;
    else if (key === '__proto__') name = "['__proto__']";
    else if (desc.enumerable === false) name = `[${key}]`;
    else if (identRe.test(key)) name = key;
    else name = strEscape(key);
    return `${name}: ${str}`;
  }

  // Own array indices of value, ascending (for skipping long runs of holes
  // without testing each index: an array's length may be 2^32-1 with one
  // element, and a Proxy's length anything).
  function ownIndexes(value) {
    const out = [];
    for (const k of Object.getOwnPropertyNames(value)) if (isIndex(k)) out.push(+k);
    return out.sort((a, b) => a - b);
  }

  function formatArray(ctx, value, recurseTimes) {
    const len = value.length;
    const output = [];
    let i = 0;
    let present = null;
    let p = 0;
    while (i < len && output.length < ctx.maxArrayLength) {
      if (!hasOwn(value, i)) {
        let j = i + 1;
        while (j < len && j - i < 256 && !hasOwn(value, j)) j++;
        if (j < len && j - i === 256 && !hasOwn(value, j)) {
          // a long run: find its end from the own indices
          if (present === null) present = ownIndexes(value);
          while (p < present.length && present[p] < j) p++;
          j = p < present.length && present[p] < len ? present[p] : len;
        }
        const holes = j - i;
        output.push(`<${holes} empty item${holes > 1 ? 's' : ''}>`);
        i = j;
        continue;
      }
      output.push(formatProperty(ctx, value, recurseTimes, i, kArrayExtrasType));
      i++;
    }
    const remaining = len - i;
    if (remaining > 0) output.push(`... ${remaining} more item${remaining > 1 ? 's' : ''}`);
    return output;
  }

  function formatTypedArray(ctx, value) {
    const len = value.length;
    const max = Math.min(ctx.maxArrayLength, len);
    const output = [];
    for (let i = 0; i < max; i++) {
      output.push(typeof value[i] === 'bigint' ? `${value[i]}n` : formatNumber(value[i]));
    }
    if (len > max) output.push(`... ${len - max} more item${len - max > 1 ? 's' : ''}`);
    return output;
  }

  function formatArrayBuffer(ctx, value) {
    const bytes = new Uint8Array(value);
    const max = Math.min(50, bytes.length);
    let hex = '';
    for (let i = 0; i < max; i++) hex += (i ? ' ' : '') + bytes[i].toString(16).padStart(2, '0');
    const rest = bytes.length - max;
    if (rest > 0) hex += ` ... ${rest} more byte${rest > 1 ? 's' : ''}`;
    return [`[Uint8Contents]: <${hex}>`];
  }

  function formatSet(ctx, value, recurseTimes) {
    const output = [];
    ctx.indentationLvl += 2;
    for (const v of Set.prototype.values.call(value)) {
      if (output.length >= ctx.maxArrayLength) break;
      output.push(formatValue(ctx, v, recurseTimes));
    }
    ctx.indentationLvl -= 2;
    const rest = setSize.call(value) - output.length;
    if (rest > 0) output.push(`... ${rest} more item${rest > 1 ? 's' : ''}`);
    return output;
  }

  function formatMap(ctx, value, recurseTimes) {
    const output = [];
    ctx.indentationLvl += 2;
    for (const [k, v] of Map.prototype.entries.call(value)) {
      if (output.length >= ctx.maxArrayLength) break;
      output.push(`${formatValue(ctx, k, recurseTimes)} => ${formatValue(ctx, v, recurseTimes)}`);
    }
    ctx.indentationLvl -= 2;
    const rest = mapSize.call(value) - output.length;
    if (rest > 0) output.push(`... ${rest} more item${rest > 1 ? 's' : ''}`);
    return output;
  }

  // Lays out more than 6 short array entries in aligned columns, the way
  // Node does (numbers right-aligned, anything else left-aligned).
  function groupArrayElements(ctx, output, value) {
    let totalLength = 0;
    let maxLength = 0;
    let outputLength = output.length;
    if (value !== undefined && outputLength > 0 &&
        output[outputLength - 1].startsWith('... ') && output[outputLength - 1].endsWith(' more items')) {
      outputLength--;
    } else if (value !== undefined && outputLength > 0 && output[outputLength - 1] === '... 1 more item') {
      outputLength--;
    }
    const separatorSpace = 2;
    const dataLen = new Array(outputLength);
    for (let i = 0; i < outputLength; i++) {
      const len = output[i].length;
      dataLen[i] = len;
      totalLength += len + separatorSpace;
      if (maxLength < len) maxLength = len;
    }
    const actualMax = maxLength + separatorSpace;
    if (actualMax * 3 + ctx.indentationLvl < ctx.breakLength &&
        (totalLength / actualMax > 5 || maxLength <= 6)) {
      const averageBias = Math.sqrt(actualMax - totalLength / output.length);
      const biasedMax = Math.max(actualMax - 3 - averageBias, 1);
      const columns = Math.min(
        Math.round(Math.sqrt(2.5 * biasedMax * outputLength) / biasedMax),
        Math.floor((ctx.breakLength - ctx.indentationLvl) / actualMax),
        ctx.compact * 4,
        15);
      if (columns <= 1) return output;
      const maxLineLength = [];
      for (let i = 0; i < columns; i++) {
        let lineLength = 0;
        for (let j = i; j < outputLength; j += columns) {
          if (dataLen[j] > lineLength) lineLength = dataLen[j];
        }
        maxLineLength.push(lineLength + separatorSpace);
      }
      let padStart = true;
      if (value !== undefined) {
        for (let i = 0; i < outputLength; i++) {
          if (typeof value[i] !== 'number' && typeof value[i] !== 'bigint') {
            padStart = false;
            break;
          }
        }
      }
      const tmp = [];
      for (let i = 0; i < outputLength; i += columns) {
        const max = Math.min(i + columns, outputLength);
        let str = '';
        let j = i;
        for (; j < max - 1; j++) {
          const cell = `${output[j]}, `;
          str += padStart ? cell.padStart(maxLineLength[j - i], ' ') : cell.padEnd(maxLineLength[j - i], ' ');
        }
        if (padStart) str += output[j].padStart(maxLineLength[j - i] - separatorSpace, ' ');
        else str += output[j];
        tmp.push(str);
      }
      for (let i = outputLength; i < output.length; i++) tmp.push(output[i]);
      output = tmp;
    }
    return output;
  }

  function isBelowBreakLength(ctx, output, start, base) {
    let totalLength = output.length + start;
    if (totalLength + output.length > ctx.breakLength) return false;
    for (let i = 0; i < output.length; i++) {
      totalLength += output[i].length;
      if (totalLength > ctx.breakLength) return false;
    }
    return base === '' || !base.includes('\n');
  }

  function reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value) {
    const entries = output.length;
    if (extrasType === kArrayExtrasType && entries > 6) {
      output = groupArrayElements(ctx, output, value);
    }
    if (ctx.currentDepth - recurseTimes < ctx.compact && entries === output.length) {
      const start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10;
      if (isBelowBreakLength(ctx, output, start, base)) {
        const joined = output.join(', ');
        if (!joined.includes('\n')) {
          return `${base ? `${base} ` : ''}${braces[0]} ${joined} ${braces[1]}`;
        }
      }
    }
    const indentation = `\n${' '.repeat(ctx.indentationLvl)}`;
    return `${base ? `${base} ` : ''}${braces[0]}${indentation}  ${output.join(`,${indentation}  `)}${indentation}${braces[1]}`;
  }

  // util.inspect(value, options): options may set depth (null: no limit),
  // showHidden, breakLength, compact, maxArrayLength, maxStringLength,
  // customInspect.
  function inspect(value, options) {
    const ctx = {
      depth: 2, showHidden: false, breakLength: 80, compact: 3, maxArrayLength: 100,
      maxStringLength: 10000, customInspect: true,
      seen: [], circular: undefined, indentationLvl: 0, currentDepth: 0, options: {},
    };
    if (options !== null && typeof options === 'object') {
      for (const k of ['depth', 'showHidden', 'breakLength', 'compact', 'maxArrayLength',
        'maxStringLength', 'customInspect']) {
        if (options[k] !== undefined) ctx[k] = options[k];
      }
    }
    if (ctx.depth === null) ctx.depth = Infinity;
    if (ctx.maxArrayLength === null) ctx.maxArrayLength = Infinity;
    if (ctx.maxStringLength === null) ctx.maxStringLength = Infinity;
    ctx.options = { depth: ctx.depth, showHidden: ctx.showHidden, breakLength: ctx.breakLength };
    return formatValue(ctx, value, 0);
  }
  inspect.custom = customInspect;

  function hasUserToString(v) {
    let o = v;
    while (o !== null && o !== Object.prototype && o !== Error.prototype) {
      if (hasOwn(o, 'toString')) return true;
      o = Object.getPrototypeOf(o);
    }
    return false;
  }

  // util.format(...args): printf-like %s %d %i %f %j %o %O %c %%, then the
  // remaining arguments joined by spaces (strings raw, the rest inspected).
  function format(args) {
    const first = args[0];
    let a = 0;
    let str = '';
    let join = '';
    if (typeof first === 'string') {
      if (args.length === 1) return first;
      let lastPos = 0;
      let tempStr;
      for (let i = 0; i < first.length - 1; i++) {
        if (first.charCodeAt(i) !== 37) continue;
        const next = first.charCodeAt(++i);
        if (a + 1 !== args.length) {
          const arg = args[a + 1];
          switch (next) {
            case 115: // s
              if (typeof arg === 'number') tempStr = formatNumber(arg);
              else if (typeof arg === 'bigint') tempStr = `${arg}n`;
              else if (typeof arg !== 'object' || arg === null || !hasUserToString(arg)) {
                tempStr = typeof arg === 'object' && arg !== null
                  ? inspect(arg, { depth: 0 }) : typeof arg === 'symbol'
                    ? Symbol.prototype.toString.call(arg) : String(arg);
              } else tempStr = String(arg);
              break;
            case 106: // j
              try { tempStr = JSON.stringify(arg); } catch (e) {
                if (e instanceof TypeError && /circular|cyclic/i.test(e.message)) tempStr = '[Circular]';
                else throw e;
              }
              break;
            case 100: // d
              if (typeof arg === 'bigint') tempStr = `${arg}n`;
              else if (typeof arg === 'symbol') tempStr = 'NaN';
              else tempStr = formatNumber(Number(arg));
              break;
            case 79: // O
              tempStr = inspect(arg);
              break;
            case 111: // o
              tempStr = inspect(arg, { showHidden: true, depth: 4 });
              break;
            case 105: // i
              if (typeof arg === 'bigint') tempStr = `${arg}n`;
              else if (typeof arg === 'symbol') tempStr = 'NaN';
              else tempStr = formatNumber(parseInt(arg));
              break;
            case 102: // f
              tempStr = typeof arg === 'symbol' ? 'NaN' : formatNumber(parseFloat(arg));
              break;
            case 99: // c
              tempStr = '';
              break;
            case 37: // %
              str += first.slice(lastPos, i);
              lastPos = i + 1;
              continue;
            default:
              continue;
          }
          if (lastPos !== i - 1) str += first.slice(lastPos, i - 1);
          str += tempStr;
          lastPos = i + 1;
          a++;
        } else if (next === 37) {
          str += first.slice(lastPos, i);
          lastPos = i + 1;
        }
      }
      if (lastPos !== 0) {
        a++;
        join = ' ';
        if (lastPos < first.length) str += first.slice(lastPos);
      }
    }
    while (a < args.length) {
      const v = args[a];
      str += join;
      str += typeof v !== 'string' ? inspect(v) : v;
      join = ' ';
      a++;
    }
    return str;
  }

  internal.inspect = inspect;
  internal.format = format;
  internal.stackLines = stackLines;
});
