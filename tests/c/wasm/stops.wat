;; code that never ends by itself, for the stop tests (test_wasm_meter.c,
;; tests/js/wasm_stop.test.sh): each export runs until the runtime stops it.
;; The engine refuses legacy try and try_table in one module: the
;; try_table loop is stops_tt.wat.
(module
  (import "env" "f" (func $f (result i32)))
  (tag $e)
  (memory 1)
  (table 1 funcref)
  (func (export "loop") (loop $l (br $l)))
  (func $ping (export "tail") (return_call $pong))
  (func $pong (return_call $ping))
  (func (export "try_loop")
    (loop $l
      (try (do (loop $i (br $i))) (catch_all))
      (br $l)))
  (func (export "import_loop") (loop $l (drop (call $f)) (br $l)))
  (func $rec (export "recurse") (param i32) (result i32)
    ;; deep recursion, then straight-line work on the way back, again
    (loop $l
      (if (i32.lt_u (local.get 0) (i32.const 20000))
        (then (drop (call $rec (i32.add (local.get 0) (i32.const 1))))))
      (br_if $l (i32.eqz (local.get 0))))
    (i32.const 0))
  (func (export "grow") (result i32)
    (loop $l (br_if $l (i32.ne (memory.grow (i32.const 2000)) (i32.const -1))))
    (i32.const -1))
  (func (export "table_grow") (result i32)
    (loop $l (br_if $l (i32.ne (table.grow 0 (ref.null func) (i32.const 5000000)) (i32.const -1))))
    (i32.const -1)))
