;; a name section (function, local and global names), and custom sections
;; around it: "metadata.code.branch_hint" (code offsets: the meter leaves
;; it out and reports it) and "keep.me" (copied). build.sh appends those
;; two after wat2wasm --debug-names.
(module
  (import "env" "g" (global $imported i32))
  (global $named (mut i32) (i32.const 5))
  (func $add_named (export "t_names") (result i32)
    (local $tmp i32)
    (local.set $tmp (global.get $named))
    (if (result i32) (i32.gt_s (local.get $tmp) (global.get $imported))
      (then (local.get $tmp)) (else (i32.const 0)))))
