// binaryen-as.mjs in.wat out.wasm - assembles with binaryen's text parser
// (npm binaryen; BINARYEN names its index.js when it is not installed where
// node finds it), the features JavaScriptCore 2.50 enables and nothing
// newer (binaryen would otherwise use encodings JSC does not read).
import fs from 'fs';
const binaryen = (await import(process.env.BINARYEN || 'binaryen')).default;
const [, , inp, out] = process.argv;
const F = binaryen.Features;
const m = binaryen.parseText(fs.readFileSync(inp, 'utf8'));
m.setFeatures(F.MVP | F.Atomics | F.MutableGlobals | F.NontrappingFPToInt | F.SIMD128 | F.BulkMemory |
  F.SignExt | F.ExceptionHandling | F.TailCall | F.ReferenceTypes | F.Multivalue | F.GC | F.ExtendedConst);
if (!m.validate()) {
  console.error(`${inp}: not valid`);
  process.exit(1);
}
fs.writeFileSync(out, m.emitBinary());
