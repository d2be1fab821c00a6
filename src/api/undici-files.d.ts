// The two internal files of undici that src/api/undici.ts imports (CommonJS: the default export is module.exports).
declare module 'undici/lib/dispatcher/agent.js' {
  const Agent: unknown;
  export default Agent;
}
declare module 'undici/lib/api/api-request.js' {
  const request: unknown;
  export default request;
}
