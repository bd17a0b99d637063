import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, type writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import { afterEach, describe, expect, it } from "vitest";
import { directWrite, installFrameWrites } from "../../../src/tui/ink/frame-writes.js";

const BSU = "\x1b[?2026h";
const ESU = "\x1b[?2026l";

/** A stream that records each chunk the underlying write receives (one entry per writev too). */
function recordingStream(tty?: { fd: number }) {
	const calls: string[][] = [];
	const stream = new Writable({
		write(chunk, _enc, done) {
			calls.push([String(chunk)]);
			done();
		},
		writev(chunks, done) {
			calls.push(chunks.map((c) => String(c.chunk)));
			done();
		},
	}) as unknown as NodeJS.WriteStream;
	if (tty) Object.assign(stream, { isTTY: true, fd: tty.fd });
	return { stream, calls };
}

const dirs: string[] = [];
/** A file standing in for the terminal's descriptor, and what is in it. */
function terminalFile() {
	const dir = mkdtempSync(join(tmpdir(), "frame-writes-"));
	dirs.push(dir);
	const path = join(dir, "tty");
	const fd = openSync(path, "w");
	return { fd, read: () => readFileSync(path, "utf8"), close: () => closeSync(fd) };
}
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("frame writes", () => {
	it("hands one of Ink's frames to the stream in one write, the same bytes in the same order", () => {
		const { stream, calls } = recordingStream();
		const stop = installFrameWrites(stream);
		stream.write(BSU);
		stream.write("\x1b[2K\x1b[1A\x1b[Gframe");
		stream.write(ESU);
		stream.write("later");
		stop();
		expect(calls).toEqual([[`${BSU}\x1b[2K\x1b[1A\x1b[Gframe${ESU}`], ["later"]]);
	});

	it("lets a frame without its end marker out by the next tick", async () => {
		const { stream, calls } = recordingStream();
		const stop = installFrameWrites(stream);
		stream.write(BSU);
		stream.write("half a frame");
		expect(calls).toEqual([]);
		await new Promise((r) => process.nextTick(r));
		expect(calls.flat()).toEqual([`${BSU}half a frame`]);
		stop();
	});

	it("lets it out with the microtasks queued after it, before the next nextTick", async () => {
		const { stream, calls } = recordingStream();
		const stop = installFrameWrites(stream);
		stream.write(BSU);
		stream.write("half a frame");
		await Promise.resolve();
		expect(calls.flat()).toEqual([`${BSU}half a frame`]);
		stop();
	});

	it("writes what the frame held before a write it cannot hold (bytes, a callback)", () => {
		const { stream, calls } = recordingStream();
		const stop = installFrameWrites(stream);
		stream.write(BSU);
		stream.write("a");
		stream.write(Buffer.from("b"));
		stream.write("c", () => {});
		stream.write(ESU);
		stop();
		expect(calls.flat().join("")).toBe(`${BSU}abc${ESU}`);
		expect(calls[0]).toEqual([`${BSU}a`]);
	});

	it("hands every string written to `seen`, in order, held in a frame or not; bytes are not text", () => {
		const { stream, calls } = recordingStream();
		const seen: string[] = [];
		const stop = installFrameWrites(stream, undefined, (data) => seen.push(data));
		stream.write("before");
		stream.write(BSU);
		stream.write("frame");
		stream.write(ESU);
		stream.write(Buffer.from("bytes"));
		stream.write("with a callback", () => {});
		stream.write("encoded", "utf8");
		stop();
		expect(seen).toEqual(["before", BSU, "frame", ESU, "with a callback", "encoded"]);
		expect(calls.flat()).toEqual(["before", `${BSU}frame${ESU}`, "bytes", "with a callback", "encoded"]);
	});

	it("on a terminal with nothing queued, writes the frame to its descriptor in one write, in order with the stream's writes", () => {
		const file = terminalFile();
		const { stream, calls } = recordingStream({ fd: file.fd });
		const stop = installFrameWrites(stream);
		stream.write("before ");
		stream.write(BSU);
		stream.write("é frame 日本");
		stream.write(ESU);
		stream.write(" after");
		stop();
		file.close();
		// The stream's writes reach the file only through it; the frame went straight to the descriptor.
		expect(calls).toEqual([["before "], [" after"]]);
		expect(file.read()).toBe(`${BSU}é frame 日本${ESU}`);
	});

	it("leaves the frame to the stream while it is corked or has writes queued, so nothing is reordered", () => {
		const file = terminalFile();
		const { stream, calls } = recordingStream({ fd: file.fd });
		const stop = installFrameWrites(stream);
		stream.cork();
		stream.write("queued ");
		stream.write(BSU);
		stream.write("frame");
		stream.write(ESU);
		stream.uncork();
		stop();
		file.close();
		expect(file.read()).toBe("");
		expect(calls.flat().join("")).toBe(`queued ${BSU}frame${ESU}`);
	});

	it("writes the rest of a partial write, and leaves a failed one (EAGAIN, EIO) and every later frame to the stream", () => {
		const { stream, calls } = recordingStream({ fd: 99 });
		const out: string[] = [];
		let budget = 3;
		const fake = ((_fd: number, data: string | Buffer, offset?: number) => {
			const bytes = typeof data === "string" ? Buffer.from(data) : data.subarray(offset ?? 0);
			if (budget === 0) throw Object.assign(new Error("EAGAIN"), { code: "EAGAIN" });
			const n = Math.min(budget, bytes.length);
			budget -= n;
			out.push(bytes.subarray(0, n).toString("latin1"));
			return n;
		}) as unknown as typeof writeSync;
		const direct = directWrite(stream, fake);
		expect(direct).toBeDefined();
		budget = 3;
		expect(direct?.("abcdef")).toBe(true);
		// Three bytes reached the terminal; the fourth write failed, the stream wrote the rest.
		expect(out.join("")).toBe("abc");
		expect(calls.flat()).toEqual(["def"]);
		budget = 100;
		expect(direct?.("later")).toBe(false);
		expect(out.join("")).toBe("abc");
	});

	it("is not used off a terminal", () => {
		const { stream } = recordingStream();
		expect(directWrite(stream)).toBeUndefined();
	});

	it("on a real pty, the terminal gets each frame's bytes in order with the stream's writes", () => {
		const dir = mkdtempSync(join(tmpdir(), "frame-writes-pty-"));
		dirs.push(dir);
		const script = join(dir, "child.mjs");
		const counts = join(dir, "counts");
		const module = fileURLToPath(new URL("../../../src/tui/ink/frame-writes.ts", import.meta.url));
		buildSync({
			entryPoints: [module],
			bundle: true,
			format: "esm",
			platform: "node",
			outfile: join(dir, "frame-writes.mjs"),
			logLevel: "silent",
		});
		writeFileSync(
			script,
			[
				"import { writeFileSync } from 'node:fs';",
				"import { installFrameWrites } from './frame-writes.mjs';",
				"if (!process.stdout.isTTY) throw new Error('not a tty');",
				// How many writes went through Node's stream: only the ones between frames.
				"let streamWrites = 0;",
				"const { _write, _writev } = process.stdout;",
				"process.stdout._write = function (...a) { streamWrites++; return _write.apply(this, a); };",
				"process.stdout._writev = function (...a) { streamWrites++; return _writev.apply(this, a); };",
				"installFrameWrites(process.stdout);",
				"for (let i = 0; i < 200; i++) {",
				`  process.stdout.write(${JSON.stringify(BSU)}); process.stdout.write('frame ' + i + ' ' + 'x'.repeat(i * 37) + '|'); process.stdout.write(${JSON.stringify(ESU)});`,
				"  process.stdout.write('<' + i + '>');",
				"}",
				`writeFileSync(${JSON.stringify(counts)}, String(streamWrites));`,
			].join("\n"),
		);
		let expected = "";
		for (let i = 0; i < 200; i++) expected += `${BSU}frame ${i} ${"x".repeat(i * 37)}|${ESU}<${i}>`;
		// script(1) runs the child on a pty and copies what the terminal got.
		const got = execFileSync("script", ["-qec", `node ${script}`, "/dev/null"], {
			encoding: "latin1",
			maxBuffer: 64 * 1024 * 1024,
			stdio: ["ignore", "pipe", "pipe"],
		});
		expect(Buffer.from(got, "latin1").toString("utf8").replace(/\r\n/g, "\n")).toBe(expected);
		expect(readFileSync(counts, "utf8")).toBe("200");
	});
});
