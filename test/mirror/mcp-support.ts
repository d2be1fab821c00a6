import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { runProgram } from '../../src/cli.js';
import type { Factory } from '../../src/context.js';
import type { TestBed } from '../e2e/harness.js';
import { Capture } from '../support/capture.js';
import { childrenOf } from '../support/processes.js';

/** What lk mcp answers for a tool call, as the SDK's client gives it. */
export interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

export async function call(client: Client, name: string, args: Record<string, unknown> = {}, signal?: AbortSignal): Promise<ToolAnswer> {
  return (await client.callTool({ name, arguments: args }, undefined, signal ? { signal } : undefined)) as ToolAnswer;
}

/** The SDK's stdio framing over pipes the test holds itself (to write raw lines, close stdin, watch the exit). */
export function pipeTransport(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Transport {
  const buffer = new ReadBuffer();
  const transport: Transport = {
    start: async () => {
      input.on('data', (chunk: Buffer) => {
        buffer.append(chunk);
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = buffer.readMessage();
          } catch (error) {
            transport.onerror?.(error as Error);
            continue;
          }
          if (message === null) return;
          transport.onmessage?.(message);
        }
      });
    },
    send: async (message: JSONRPCMessage) => {
      output.write(serializeMessage(message));
    },
    close: async () => transport.onclose?.(),
  };
  return transport;
}

/** The environment of an lk mcp process: the test bed's, in UTC, nothing of the developer's. */
export function mcpEnv(bed: TestBed, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    TZ: 'UTC',
    ...bed.env(),
    ...extra,
  };
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** What `lk ARGS --json` prints, parsed; the run is expected to succeed. */
export async function lkJson(bed: TestBed, args: string[], options?: Parameters<TestBed['lk']>[1]): Promise<unknown> {
  const result = await bed.lk([...args, '--json'], options);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as unknown;
}

/** `lk mcp ARGS` run in this process on pipes: its stdin and stdout, what it logs, and its exit code once it ends. */
export interface InProcessMcp {
  stdin: PassThrough;
  stdout: PassThrough;
  stderr: () => string;
  exited: Promise<number>;
  /** An SDK client connected to it. */
  connect(): Promise<Client>;
}

export function mcpInProcess(bed: TestBed, args: string[], signal?: AbortSignal): InProcessMcp {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new Capture();
  const factory: Factory = {
    stdin,
    stdout,
    stderr,
    env: { ...mcpEnv(bed), LANG: 'C.UTF-8' },
    argv: ['node', 'lk', 'mcp', ...args],
    now: Date.now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    signal,
  };
  return {
    stdin,
    stdout,
    stderr: () => stderr.text,
    exited: runProgram(factory.argv, factory),
    async connect() {
      const client = new Client({ name: 'lk-test', version: '1.0.0' });
      await client.connect(pipeTransport(stdout, stdin));
      return client;
    },
  };
}

/** An SDK client connected to `lk mcp ARGS` run in this process, what it logs, and its end: stdin closed, exit 0. */
export async function connectInProcess(bed: TestBed, args: string[]): Promise<{ client: Client; stderr: () => string; close(): Promise<void> }> {
  const server = mcpInProcess(bed, args);
  const client = await server.connect();
  return {
    client,
    stderr: server.stderr,
    async close() {
      await client.close();
      server.stdin.end();
      expect(await server.exited).toBe(0);
    },
  };
}

/** The JSON-RPC lines an lk mcp run writes, as they come. */
export function linesOf(stdout: NodeJS.ReadableStream): unknown[] {
  const lines: unknown[] = [];
  let rest = '';
  stdout.on('data', (chunk: Buffer) => {
    const text = rest + chunk.toString();
    const complete = text.split('\n');
    rest = complete.pop()!;
    for (const line of complete) lines.push(JSON.parse(line));
  });
  return lines;
}

/** The query processes (dist/mirror-query.cjs) whose parent is `pid`, read from /proc. */
export function queryProcessesOf(pid: number): number[] {
  return childrenOf(pid, 'mirror-query');
}
