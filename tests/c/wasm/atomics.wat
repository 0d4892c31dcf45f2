;; atomics on an unshared memory (JavaScriptCore accepts them without
;; shared memory): loads, stores, read-modify-write, compare-exchange,
;; fence, notify.
(module
  (memory 1 1)
  (func (export "t_rmw") (result i32)
    (local $i i32)
    (loop $l
      (drop (i32.atomic.rmw.add (i32.const 8) (local.get $i)))
      (drop (i64.atomic.rmw32.xor_u (i32.const 16) (i64.extend_i32_u (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const 1000))))
    (atomic.fence)
    (i32.add (i32.atomic.load (i32.const 8)) (i32.wrap_i64 (i64.atomic.load (i32.const 16)))))
  (func (export "t_cmpxchg") (result i32)
    (i32.atomic.store (i32.const 32) (i32.const 5))
    (i32.add (i32.atomic.rmw.cmpxchg (i32.const 32) (i32.const 5) (i32.const 9))
      (i32.add (i32.atomic.load8_u (i32.const 32)) (memory.atomic.notify (i32.const 32) (i32.const 1))))))
