// Collects a command's output for `bash` without keeping all of it in memory or re-reading it per chunk.
// Only a bounded tail stays in memory; once the output outgrows the caps, everything (from the start) is
// also streamed to a temp file (0600, in the process's private folder) so the model can read the full
// output later.

import { randomBytes } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { join } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { createChunkRedactor } from "../safety/secrets.js";
import { privateTempDir } from "./private-temp.js";
import { type TruncationResult, truncateTail } from "./truncate.js";

export interface OutputSnapshot {
	/** Tail of the output that fits the caps. */
	text: string;
	truncation: TruncationResult;
	/** Where the full output is, once it was cut. */
	fullOutputPath?: string;
}

export class OutputCollector {
	private chunks: Buffer[] = [];
	private keptBytes = 0;
	/** True once the oldest chunks were dropped, so the kept text may start mid-line. */
	private dropped = false;
	private totalBytes = 0;
	private newlines = 0;
	private lastByte = -1;
	private file?: WriteStream;
	private filePath?: string;
	/** The log on disk holds no known secret (a command may print one); text is decoded to be redacted. */
	private readonly fileDecoder = new StringDecoder("utf8");
	private readonly fileRedactor = createChunkRedactor();

	constructor(
		private readonly maxLines: number,
		private readonly maxBytes: number,
		private readonly tempPrefix = "rudder-bash",
	) {}

	/** Cost grows with the chunk only, never with the output seen so far. */
	append(chunk: Buffer): void {
		if (chunk.length === 0) return;
		this.totalBytes += chunk.length;
		for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) this.newlines++;
		this.lastByte = chunk[chunk.length - 1] ?? -1;
		this.writeToFile(chunk);
		this.chunks.push(chunk);
		this.keptBytes += chunk.length;
		// Opened before anything is dropped, so the file gets the output from its first byte.
		if (!this.file && (this.totalBytes > this.maxBytes || this.newlines >= this.maxLines)) this.openFile();
		// Twice the byte cap covers any tail the caps can select (the line cap never needs more bytes).
		const keep = this.maxBytes * 2;
		while (this.keptBytes - (this.chunks[0]?.length ?? 0) >= keep) {
			this.keptBytes -= this.chunks.shift()?.length ?? 0;
			this.dropped = true;
		}
	}

	/** The tail of the output so far, capped; cost bounded by the caps, not by the output size. */
	snapshot(): OutputSnapshot {
		let text = Buffer.concat(this.chunks).toString("utf8");
		if (this.dropped) {
			// The first kept line is probably partial (and may start mid-character); drop it.
			const firstNewline = text.indexOf("\n");
			if (firstNewline !== -1) text = text.slice(firstNewline + 1);
		}
		if (text.endsWith("\n")) text = text.slice(0, -1);
		const truncation = truncateTail(text, { maxLines: this.maxLines, maxBytes: this.maxBytes });
		const totalLines = this.newlines + (this.lastByte === 10 || this.totalBytes === 0 ? 0 : 1);
		if (this.dropped) {
			truncation.truncated = true;
			truncation.truncatedBy ??= "bytes";
		}
		truncation.totalLines = Math.max(totalLines, truncation.outputLines);
		truncation.totalBytes = this.totalBytes;
		return { text: truncation.content, truncation, fullOutputPath: truncation.truncated ? this.filePath : undefined };
	}

	/** Flushes and closes the temp file, if one was opened. */
	async close(): Promise<void> {
		const file = this.file;
		if (!file) return;
		file.write(this.fileRedactor.push(this.fileDecoder.end()) + this.fileRedactor.end());
		await new Promise<void>((resolve) => file.end(resolve));
	}

	private openFile(): void {
		this.filePath = join(privateTempDir(), `${this.tempPrefix}-${randomBytes(6).toString("hex")}.log`);
		this.file = createWriteStream(this.filePath, { flags: "wx", mode: 0o600 });
		// A full disk must not crash the process; the tail in memory is still returned.
		this.file.on("error", () => {});
		for (const chunk of this.chunks) this.writeToFile(chunk);
	}

	private writeToFile(chunk: Buffer): void {
		if (!this.file) return;
		this.file.write(this.fileRedactor.push(this.fileDecoder.write(chunk)));
	}
}
