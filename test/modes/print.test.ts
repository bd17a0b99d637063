import { describe, expect, it } from "vitest";
import { errorLine, forOutput } from "../../src/modes/print.js";
import { processSecrets } from "../../src/safety/secrets.js";

describe("print mode output", () => {
	const hostile = "title \x1b]0;pwned\x07 clip \x1b]52;c;eA==\x07 alt \x1b[?1049h ask \x1b[6n \u202eevil";

	it("writes text byte for byte to a pipe and sanitised to a terminal", () => {
		expect(forOutput({ write() {} }, hostile)).toBe(hostile);
		const tty = forOutput({ write() {}, isTTY: true }, hostile);
		expect(tty).toBe("title ^[]0;pwned^G clip ^[]52;c;eA==^G alt ^[[?1049h ask ^[[6n ⟪U+202E⟫evil");
	});

	it("error lines are one line, sanitised and redacted whatever stderr is", () => {
		processSecrets.add("sk-print-test-secret-1234");
		expect(errorLine("HTTP 401: bad key sk-print-test-secret-1234\n\x1b]0;t\x07")).toBe("rudder: HTTP 401: bad key [redacted] ^[]0;t^G\n");
	});
});
