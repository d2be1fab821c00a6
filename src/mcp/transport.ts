import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * MCP over a pair of streams, one JSON-RPC message a line, with the SDK's own framing (ReadBuffer, serializeMessage).
 * Unlike the SDK's StdioServerTransport it answers what JSON-RPC asks of a server: a line that is not JSON gets a
 * -32700 error and one that is not a JSON-RPC message a -32600 error, both with id null (the SDK's transport drops
 * them unanswered). It ends when the client closes its end of the pipe, and it never queues a listener per answer.
 * Messages are handed on one per turn of the event loop, so that an answer read in this process is written before the
 * next call is read; while the client reads slower than it asks, the transport stops handing on calls and reading
 * stdin until stdout drains. Memory stays that of one answer, however many calls a client pipelines.
 */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly buffer = new ReadBuffer();
  private closed = false;
  private waitingForDrain = false;
  private nextTurn: NodeJS.Immediate | undefined;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    this.input.on('end', this.onEnd);
    this.input.on('close', this.onEnd);
    this.output.on('error', this.onOutputError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    if (this.output.write(serializeMessage(message)) || this.waitingForDrain) return;
    this.waitingForDrain = true;
    this.input.pause();
    this.output.once('drain', () => {
      this.waitingForDrain = false;
      if (this.closed) return;
      this.input.resume();
      this.handOnLater();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.input.off('end', this.onEnd);
    this.input.off('close', this.onEnd);
    this.input.pause();
    clearImmediate(this.nextTurn);
    this.buffer.clear();
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer) => {
    try {
      this.buffer.append(chunk);
    } catch (error) {
      // A line longer than the SDK's buffer (10 MB): nothing after it can be framed.
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    this.handOnLater();
  };

  private handOnLater(): void {
    this.nextTurn ??= setImmediate(this.handOn);
  }

  /** Hands on the next whole message of the buffer, if any, and comes back for the one after on the next turn. */
  private readonly handOn = () => {
    this.nextTurn = undefined;
    if (this.closed || this.waitingForDrain) return;
    let message: JSONRPCMessage | null;
    try {
      message = this.buffer.readMessage();
    } catch (error) {
      // The line is consumed: answer it and go on with the next one.
      const parse = error instanceof SyntaxError;
      this.onerror?.(new Error(parse ? 'a line that is not JSON (answered -32700)' : 'a line that is not a JSON-RPC message (answered -32600)'));
      void this.send({
        jsonrpc: '2.0',
        id: null,
        error: parse
          ? { code: -32700, message: 'Parse error: the line is not JSON' }
          : { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' },
      } as unknown as JSONRPCMessage);
      this.handOnLater();
      return;
    }
    if (message === null) return;
    this.onmessage?.(message);
    this.handOnLater();
  };

  private readonly onEnd = () => void this.close();

  private readonly onInputError = (error: Error) => {
    this.onerror?.(error);
    void this.close();
  };

  // The client is gone (EPIPE): nobody is left to answer.
  private readonly onOutputError = (error: Error) => {
    this.onerror?.(error);
    void this.close();
  };
}
