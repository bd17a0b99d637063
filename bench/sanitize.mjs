#!/usr/bin/env node
import { join } from "node:path";
// Cost of the terminal sanitiser on the per-token path: µs per KB of input for plain ASCII, prose with
// wide characters and emoji, token-sized chunks, and hostile text (escapes, C1, bidi, zero-width).
// `node bench/sanitize.mjs [module]` prints one JSON line; the module defaults to the built sanitiser.
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { root } from "./lib/apps.mjs";

const modulePath = process.argv[2] ?? join(root, "dist", "src", "safety", "sanitize.js");
const { sanitizeTerminalText } = await import(pathToFileURL(modulePath).href);

const repeatTo = (unit, bytes) => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
const inputs = {
	ascii: repeatTo("The quick brown fox jumps over the lazy dog; const x = f(y) + 1;\n", 64 * 1024),
	prose: repeatTo("日本語のテキスト — “quoted” café 😀 naïve résumé\n", 32 * 1024),
	hostile: repeatTo("ok \x1b[31mred\x1b[0m \x1b]0;title\x07 â€\x9d tail \u202eevil\u202c zw\u200bsp\ttab\r\n", 64 * 1024),
};
// Streaming deltas: many small strings, as the TUI sanitises each visible tail.
const tokens = Array.from({ length: 4096 }, (_, i) => ` word${i % 97}`);

function usPerKb(fn, kb, minMs = 200) {
	for (let i = 0; i < 20; i++) fn();
	let n = 0;
	const start = performance.now();
	let elapsed = 0;
	while (elapsed < minMs) {
		fn();
		n++;
		elapsed = performance.now() - start;
	}
	return (elapsed * 1000) / n / kb;
}

const result = {};
for (const [name, text] of Object.entries(inputs)) {
	const kb = Buffer.byteLength(text) / 1024;
	result[name] = usPerKb(() => sanitizeTerminalText(text), kb);
}
const tokenKb = Buffer.byteLength(tokens.join("")) / 1024;
result.tokens = usPerKb(() => {
	for (const t of tokens) sanitizeTerminalText(t);
}, tokenKb);
console.log(
	JSON.stringify({ unit: "µs per KB", ...Object.fromEntries(Object.entries(result).map(([k, v]) => [k, Number(v.toFixed(2))])) }),
);
