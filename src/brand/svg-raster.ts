/**
 * An SVG rasterised within a time limit (issue 35). resvg renders synchronously in native code,
 * which no signal interrupts, so it runs in a worker thread that is terminated when the time is
 * up; the brand loader is synchronous (it runs while a command's settings are resolved), so this
 * thread waits on a shared word (Atomics.wait, bounded) and takes the answer from the port
 * synchronously (receiveMessageOnPort). The size is checked in the worker after parsing and
 * before any pixel is allocated.
 */
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';

export type Rasterised =
  | { kind: 'png'; png: Uint8Array; width: number; height: number }
  | { kind: 'empty' }
  | { kind: 'too-large'; width: number; height: number }
  | { kind: 'too-slow' }
  | { kind: 'failed'; why: string };

export interface RasterOptions {
  /** resvg-js's entry, resolved by the caller (the worker's code is evaluated, with no module of its own to resolve from). */
  resvg: string;
  /** The raster's width; the height follows the SVG's aspect ratio. */
  width: number;
  maxSide: number;
  maxPixels: number;
  renderMs: number;
}

/** Plain JavaScript, evaluated in the worker (no TypeScript loader reaches a worker thread). */
const WORKER = `
const { workerData } = require('node:worker_threads');
const { port, done, svg, resvg, width, maxSide, maxPixels } = workerData;
let answer;
try {
  const { Resvg } = require(resvg);
  const r = new Resvg(Buffer.from(svg), { fitTo: { mode: 'width', value: width }, font: { loadSystemFonts: false } });
  const height = Math.ceil((width * r.height) / r.width);
  if (!(r.width > 0) || !(r.height > 0) || !Number.isFinite(height) || height === 0) answer = { kind: 'empty' };
  else if (height > maxSide || width > maxSide || width * height > maxPixels) answer = { kind: 'too-large', width, height };
  else {
    const image = r.render();
    answer = { kind: 'png', png: new Uint8Array(image.asPng()), width: image.width, height: image.height };
  }
} catch (e) {
  answer = { kind: 'failed', why: String((e && e.message) || e).split('\\n')[0] };
}
port.postMessage(answer);
Atomics.store(done, 0, 1);
Atomics.notify(done, 0);
`;

export function rasteriseSvg(svg: Buffer, options: RasterOptions): Rasterised {
  const done = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const { resvg, width, maxSide, maxPixels } = options;
  const worker = new Worker(WORKER, { eval: true, workerData: { port: port2, done, svg: new Uint8Array(svg), resvg, width, maxSide, maxPixels }, transferList: [port2], stdout: true, stderr: true });
  try {
    const waited = Atomics.wait(done, 0, 0, options.renderMs);
    const message = waited === 'timed-out' ? undefined : receiveMessageOnPort(port1);
    return message ? (message.message as Rasterised) : { kind: 'too-slow' };
  } finally {
    port1.close();
    // Stopped whether it finished or not: a render still running is abandoned with its memory.
    void worker.terminate();
  }
}
