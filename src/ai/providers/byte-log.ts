// Bytes that only grow at the end, kept in slabs of their own: the JSON of a transcript's messages,
// written once and sent again by every later request (wire-history.ts). Bytes once written are never
// written again, not even after a cut: a request may still be sending them (a socket's queued
// writev) while the next one is built, so a cut seals the slab and later bytes go to a new one.
// Slabs are not Node's shared 8 KiB pool: a session-long slice of it would keep its whole slab alive
// with whatever else was cut from it (a soak of 3,000 calls held 26 MiB of ArrayBuffers for ~5 MiB of
// cached bytes).

/** How much a new slab holds: few chunks for a long history, little room left unused. */
export const SLAB_BYTES = 256 * 1024;

export class ByteLog {
	/** Slabs full or sealed, as views of the bytes they hold. */
	private readonly sealed: Buffer[] = [];
	/** The slab being written, and how much of it is. */
	private open: Buffer | undefined;
	private used = 0;
	/** Bytes written in all. */
	length = 0;

	/** Appends `text` as UTF-8. */
	append(text: string): void {
		const size = Buffer.byteLength(text, "utf8");
		if (size === 0) return;
		this.length += size;
		if (this.open && this.used + size <= this.open.length) {
			this.used += this.open.write(text, this.used, "utf8");
			return;
		}
		// Across the end of the open slab: the bytes are split where the slab ends, not the characters.
		const bytes = Buffer.from(text, "utf8");
		let from = 0;
		if (this.open) {
			from = bytes.copy(this.open, this.used);
			this.used += from;
			this.seal();
		}
		this.open = Buffer.allocUnsafeSlow(Math.max(SLAB_BYTES, size - from));
		this.used = bytes.copy(this.open, 0, from);
	}

	/** The first `length` bytes, as views (no copy). */
	chunks(length: number): Buffer[] {
		const out: Buffer[] = [];
		let left = length;
		for (const slab of this.open ? [...this.sealed, this.open.subarray(0, this.used)] : this.sealed) {
			if (left <= 0) break;
			out.push(slab.length <= left ? slab : slab.subarray(0, left));
			left -= slab.length;
		}
		return out;
	}

	/** Keeps only the first `length` bytes; what comes next goes to a new slab. */
	truncate(length: number): void {
		if (length >= this.length) return;
		this.seal();
		let left = length;
		let keep = 0;
		while (keep < this.sealed.length && left > 0) {
			const slab = this.sealed[keep] as Buffer;
			if (slab.length > left) this.sealed[keep] = slab.subarray(0, left);
			left -= slab.length;
			keep++;
		}
		this.sealed.length = keep;
		this.length = length;
	}

	private seal(): void {
		if (this.open && this.used > 0) this.sealed.push(this.open.subarray(0, this.used));
		this.open = undefined;
		this.used = 0;
	}
}
