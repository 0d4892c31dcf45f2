;; tail calls: direct, indirect and mutual recursion that never grows the stack
(module
  (type $ii (func (param i64 i64) (result i64)))
  (table 2 funcref)
  (elem (i32.const 0) $even $odd)
  (func $even (type $ii)
    (if (result i64) (i64.eqz (local.get 0)) (then (local.get 1))
      (else (return_call $odd (i64.sub (local.get 0) (i64.const 1)) (i64.add (local.get 1) (i64.const 2))))))
  (func $odd (type $ii)
    (if (result i64) (i64.eqz (local.get 0)) (then (i64.sub (local.get 1) (i64.const 1)))
      (else (return_call_indirect (type $ii) (i64.sub (local.get 0) (i64.const 1)) (i64.add (local.get 1) (i64.const 3)) (i32.const 0)))))
  (func (export "t_mutual") (result i64) (call $even (i64.const 1000001) (i64.const 0)))
  (func (export "t_direct") (result i64) (return_call $even (i64.const 10) (i64.const 5))))
