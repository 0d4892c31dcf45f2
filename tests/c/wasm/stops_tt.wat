;; a loop in a try_table that catches everything, for the stop tests
;; (stops.wat has the legacy try: the engine refuses both in one module)
(module
  (func (export "try_table_loop")
    (loop $l
      (block $h (try_table (catch_all $h) (loop $i (br $i))))
      (br $l))))
