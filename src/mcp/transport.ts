import { deserializeMessage, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { LineFramer } from './line-framer.js';

/**
 * The longest message read (10 MiB, the SDK's own limit): a longer line is answered with a -32600 error and dropped
 * as it comes, so it never takes more memory than this. Whole lines waiting to be handed on stop the reading of stdin
 * at the same size, so a client that writes faster than lk answers never fills memory either.
 */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * MCP over a pair of streams, one JSON-RPC message a line (line-framer.ts; the SDK's own parsing and serializeMessage).
 * Unlike the SDK's StdioServerTransport it answers what JSON-RPC asks of a server: a line that is not JSON gets a
 * -32700 error, and one that is not a JSON-RPC message or is longer than MAX_MESSAGE_BYTES a -32600 error, all with
 * id null (the SDK's transport drops the first two unanswered, and stops reading at the third). It ends when the client closes its end of the pipe (once the lines written before are handed on), and it never
 * queues a listener per answer.
 * Messages are handed on one per turn of the event loop, so that an answer read in this process is written before the
 * next call is read; while the client reads slower than it asks, the transport stops handing on calls and reading
 * stdin until stdout drains. Memory stays that of one answer, however many calls a client pipelines.
 */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Settles once the transport has closed (the client's end, an error, or close()), whoever listens to onclose. */
  readonly ended: Promise<void>;
  private settleClosed!: () => void;

  private readonly buffer = new LineFramer(MAX_MESSAGE_BYTES);
  private closed = false;
  private waitingForDrain = false;
  /** stdin paused because whole lines wait to be handed on (MAX_MESSAGE_BYTES of them). */
  private waitingForTurns = false;
  private inputEnded = false;
  private nextTurn: NodeJS.Immediate | undefined;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
  ) {
    this.ended = new Promise((resolve) => (this.settleClosed = resolve));
  }

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
      if (!this.waitingForTurns) this.input.resume();
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
    this.settleClosed();
  }

  private readonly onData = (chunk: Buffer) => {
    this.buffer.append(chunk);
    if (this.buffer.queuedBytes > MAX_MESSAGE_BYTES && !this.waitingForTurns) {
      this.waitingForTurns = true;
      this.input.pause();
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
    const line = this.buffer.next();
    if (line === undefined) {
      // The client has closed its end: every line it wrote before has been handed on.
      if (this.inputEnded) void this.close();
      return;
    }
    if (this.waitingForTurns && this.buffer.queuedBytes <= MAX_MESSAGE_BYTES / 2) {
      this.waitingForTurns = false;
      this.input.resume();
    }
    if ('oversized' in line) {
      this.refuse(`a line of ${line.oversized} bytes, longer than ${MAX_MESSAGE_BYTES} (answered -32600)`, {
        code: -32600,
        message: `Invalid Request: the message is ${line.oversized} bytes long; lk mcp reads messages of up to ${MAX_MESSAGE_BYTES} bytes (10 MiB)`,
      });
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line.text);
    } catch (error) {
      // The line is consumed: answer it and go on with the next one.
      const parse = error instanceof SyntaxError;
      this.refuse(
        parse ? 'a line that is not JSON (answered -32700)' : 'a line that is not a JSON-RPC message (answered -32600)',
        parse
          ? { code: -32700, message: 'Parse error: the line is not JSON' }
          : { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' },
      );
      return;
    }
    this.onmessage?.(message);
    this.handOnLater();
  };

  /** Answers a line that is no message with a JSON-RPC error (id null: none could be read), and goes on. */
  private refuse(logged: string, error: { code: number; message: string }): void {
    this.onerror?.(new Error(logged));
    void this.send({ jsonrpc: '2.0', id: null, error } as unknown as JSONRPCMessage);
    this.handOnLater();
  }

  /** stdin ended: the lines still waiting are handed on first, then the transport closes. */
  private readonly onEnd = () => {
    this.inputEnded = true;
    this.handOnLater();
  };

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
