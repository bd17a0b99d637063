import { describe, expect, it } from "vitest";
import { KEY_ENV_VARS, keyEnvVarsText, PROVIDER_KEY_ENV, THINKING_LEVELS } from "../../src/ai/constants.js";
import { ModelRegistry } from "../../src/ai/model-registry.js";
import { parseCliArgs } from "../../src/cli/args.js";
import { validateSettings } from "../../src/session/settings.js";

describe("shared constants", () => {
	it("every env var listed to the user is one the registry reads a key from (GOOGLE_API_KEY included)", () => {
		expect(KEY_ENV_VARS).toContain("GOOGLE_API_KEY");
		for (const [provider, vars] of Object.entries(PROVIDER_KEY_ENV)) {
			for (const name of vars) {
				const registry = new ModelRegistry({ env: { [name]: `key-of-${name}` } });
				expect(registry.getApiKey(provider)).toBe(`key-of-${name}`);
			}
		}
		expect(keyEnvVarsText()).toMatch(/^ANTHROPIC_API_KEY, .* or DEEPSEEK_API_KEY$/);
	});

	it("the command line and the settings accept exactly the thinking levels", () => {
		for (const level of THINKING_LEVELS) {
			const parsed = parseCliArgs(["node", "rudder", "--thinking", level], "0");
			expect(parsed.kind === "run" && parsed.args.thinking).toBe(level);
			expect(validateSettings({ defaultThinkingLevel: level }, "s.json")).toEqual({ defaultThinkingLevel: level });
		}
		expect(parseCliArgs(["node", "rudder", "--thinking", "max"], "0").kind).toBe("exit");
		expect(() => validateSettings({ defaultThinkingLevel: "max" }, "s.json")).toThrow(/defaultThinkingLevel/);
	});
});
