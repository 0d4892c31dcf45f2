;; extended constant expressions, and constant expressions naming defined
;; globals (whose indices the meter moves): globals, an element offset, a
;; data offset and a table initializer.
(module
  (import "env" "g" (global $g i32))
  (global $a i32 (i32.add (global.get $g) (i32.const 3)))
  (global $b i32 (i32.mul (global.get $a) (i32.const 4)))
  (global $c i64 (i64.sub (i64.const 100) (i64.mul (i64.const 3) (i64.const 7))))
  (global $d (mut i32) (global.get $b))
  (memory 1)
  (table $t 32 funcref)
  (table $u 2 funcref (ref.func $one))
  (data (offset (i32.add (global.get $a) (i32.const 10))) "\2a")
  (elem (table $t) (offset (i32.sub (global.get $b) (i32.const 10))) func $one)
  (func $one (result i32) (i32.const 1))
  (func (export "t_globals") (result i32)
    (global.set $d (i32.add (global.get $d) (i32.const 1)))
    (i32.add (i32.add (global.get $a) (global.get $b)) (i32.add (global.get $d) (i32.wrap_i64 (global.get $c)))))
  (func (export "t_offsets") (result i32)
    (i32.add (i32.load8_u (i32.add (global.get $a) (i32.const 10)))
      (i32.add (ref.is_null (table.get $t (i32.sub (global.get $b) (i32.const 10))))
        (ref.is_null (table.get $u (i32.const 1)))))))
