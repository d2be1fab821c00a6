// The two internal files of undici that src/api/undici.ts imports (CommonJS: the default export is module.exports).
declare module 'undici/lib/dispatcher/agent.js' {
  const Agent: unknown;
  export default Agent;
}
declare module 'undici/lib/api/api-request.js' {
  const request: unknown;
  export default request;
}
// Loaded on first use, when a proxy variable is set (src/api/undici.ts loadEnvHttpProxyAgent).
declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  const EnvHttpProxyAgent: unknown;
  export default EnvHttpProxyAgent;
}
declare module 'undici/lib/dispatcher/dispatcher.js' {
  const Dispatcher: unknown;
  export default Dispatcher;
}
declare module 'undici/lib/api/api-connect.js' {
  const connect: unknown;
  export default connect;
}
