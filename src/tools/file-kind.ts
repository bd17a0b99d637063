// What a file holds, told from its first bytes: an image the model can look at, binary data it cannot
// read, or text. Magic bytes, not extensions, so a misnamed file is still handled right.

export type ImageMimeType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** How many leading bytes are scanned for NUL to call a file binary (git uses the same 8 KB). */
export const BINARY_SNIFF_BYTES = 8192;

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0): boolean => signature.every((b, i) => bytes[at + i] === b);

const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

export function detectImageMimeType(bytes: Uint8Array): ImageMimeType | undefined {
	if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
	if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
	if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
	if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
	return undefined;
}

/** True when a NUL byte appears in the first `BINARY_SNIFF_BYTES`: text files never hold one. */
export function looksBinary(bytes: Uint8Array): boolean {
	const end = Math.min(bytes.length, BINARY_SNIFF_BYTES);
	return bytes.subarray(0, end).includes(0);
}
