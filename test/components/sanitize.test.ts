import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sanitizeTerminalText } from "../../components/sanitize.js";

describe("sanitizeTerminalText", () => {
	it("strips CSI, OSC (title, clipboard, hyperlink), DCS, APC and 8-bit C1 sequences", () => {
		expect(sanitizeTerminalText("a\x1b[2J\x1b[1;1Hb\x1b[31mc\x1b[0m")).toBe("abc");
		expect(sanitizeTerminalText("\x1b]0;title\x07x")).toBe("x");
		expect(sanitizeTerminalText("\x1b]52;c;Y2xpcA==\x1b\\x")).toBe("x");
		expect(sanitizeTerminalText("\x1b]8;;http://e.x\x1b\\link\x1b]8;;\x1b\\")).toBe("link");
		expect(sanitizeTerminalText("\x1bP1$r0m\x1b\\ok")).toBe("ok");
		expect(sanitizeTerminalText("\x1b_apc\x1b\\ok")).toBe("ok");
		expect(sanitizeTerminalText("\x9b31mred\x9d0;t\x9cok")).toBe("redok");
		expect(sanitizeTerminalText("\x1bcreset \x1b(Bcharset")).toBe("reset charset");
		expect(sanitizeTerminalText("unterminated \x1b]0;title")).toBe("unterminated ");
	});

	it("makes tabs and other control characters visible, keeps newlines and wide characters", () => {
		expect(sanitizeTerminalText("a\tb")).toBe("a    b");
		expect(sanitizeTerminalText("bell\x07 cr\r over\b")).toBe("bell^G cr^M over^H");
		expect(sanitizeTerminalText("x\r\ny")).toBe("x\ny");
		expect(sanitizeTerminalText("\x85nel")).toBe("<U+0085>nel");
		expect(sanitizeTerminalText("日本語 😀 ok\n")).toBe("日本語 😀 ok\n");
	});

	it("never lets an ESC, BEL or C1 byte through, whatever the input", () => {
		const hostileChars = fc.constantFrom("\x1b", "[", "]", "\x07", "\x9b", "\x9d", "\x9c", "\\", "P", "0", ";", "m", "a", "\n", "\t", "\r");
		fc.assert(
			fc.property(fc.array(hostileChars, { maxLength: 60 }), (chars) => {
				const out = sanitizeTerminalText(chars.join(""));
				return !/[\x00-\x09\x0b-\x1f\x7f-\x9f]/.test(out);
			}),
			{ numRuns: 2000 },
		);
	});
});
