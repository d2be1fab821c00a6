// cli-table3's internal measuring functions, which src/output/formats/table.ts points at lk's own (CommonJS: the
// default export is module.exports).
declare module 'cli-table3/src/utils.js' {
  const utils: unknown;
  export default utils;
}
