import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createChunkRedactor, createRedactor, REDACTED } from "../../src/safety/secrets.js";

describe("createRedactor", () => {
	it("replaces every known secret, longest first, and its JSON-escaped form", () => {
		const r = createRedactor();
		r.add("sk-abcdefgh12345");
		r.add("sk-abcdefgh12345-longer");
		r.add('quote"secret\\xyz');
		r.add("short");
		r.add(undefined);
		expect(r.size).toBe(4);
		expect(r.redact("a sk-abcdefgh12345-longer b sk-abcdefgh12345 c")).toBe(`a ${REDACTED} b ${REDACTED} c`);
		expect(r.redact(JSON.stringify({ v: 'quote"secret\\xyz' }))).toBe(`{"v":"${REDACTED}"}`);
		expect(r.redact("short stays")).toBe("short stays");
	});

	it("property: no secret survives, and text without a secret is unchanged", { timeout: 30_000 }, () => {
		const secret = fc.string({ unit: fc.constantFrom(..."abcXYZ0189-_"), minLength: 8, maxLength: 24 });
		fc.assert(
			fc.property(
				fc.array(secret, { minLength: 1, maxLength: 4 }),
				fc.array(fc.string({ maxLength: 12 }), { maxLength: 8 }),
				(secrets, pieces) => {
					const r = createRedactor();
					for (const s of secrets) r.add(s);
					const text = pieces.map((p, i) => `${p}${secrets[i % secrets.length]}`).join(" ");
					const out = r.redact(text);
					for (const s of secrets) if (out.includes(s)) return false;
					const plain = pieces.join(" ").replace(/[a-zA-Z0-9_-]/g, ".");
					return r.redact(plain) === plain;
				},
			),
			{ numRuns: 500 },
		);
	});
});

describe("createChunkRedactor", () => {
	it("property: a stream cut anywhere is redacted as if it were whole", { timeout: 30_000 }, () => {
		fc.assert(
			fc.property(
				fc.string({ unit: fc.constantFrom(..."abc0123"), minLength: 8, maxLength: 16 }),
				fc.array(fc.string({ unit: fc.constantFrom(..."xyz \n"), maxLength: 10 }), { maxLength: 6 }),
				fc.array(fc.nat(), { maxLength: 6 }),
				(secret, fillers, cuts) => {
					const redactor = createRedactor();
					redactor.add(secret);
					const whole = fillers.map((f) => `${f}${secret}`).join("") + "tail";
					const points = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b);
					const stream = createChunkRedactor(redactor);
					let out = "";
					let from = 0;
					for (const at of [...points, whole.length]) {
						out += stream.push(whole.slice(from, at));
						from = at;
					}
					out += stream.end();
					return out === redactor.redact(whole) && !out.includes(secret);
				},
			),
			{ numRuns: 500 },
		);
	});

	it("passes text through untouched when no secret is known", () => {
		const stream = createChunkRedactor(createRedactor());
		expect(stream.push("abc")).toBe("abc");
		expect(stream.end()).toBe("");
	});
});
