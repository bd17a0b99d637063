// models.json and auth.json problems are listed (file, field, what is wrong), a bad provider or key is
// skipped alone, a world-readable auth.json is refused, and every key read goes to the redactor.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatConfigProblem } from "../../src/config/problems.js";
import { processSecrets } from "../../src/safety/secrets.js";
import { UserModels } from "../../src/settings/user-models.js";

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rudder-problems-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const registry = (env: Record<string, string> = {}) => new UserModels({ configDir: dir, env });
const writeAuth = (value: unknown, mode = 0o600) => {
	const file = join(dir, "auth.json");
	writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value), { mode });
	chmodSync(file, mode);
};
const provider = (api: string, id = "m1") => ({ baseUrl: "http://127.0.0.1:9/v1", api, models: [{ id }] });

describe("models.json problems", () => {
	it('a provider with "api": "openai-chat" is skipped and named; the other providers still load', () => {
		writeFileSync(
			join(dir, "models.json"),
			JSON.stringify({ providers: { loc: provider("openai-chat"), ok: provider("openai-completions", "m2") } }),
		);
		const r = registry();
		expect(r.problems).toHaveLength(1);
		expect(r.problems[0]).toMatchObject({ field: "providers.loc.api", provider: "loc" });
		expect(formatConfigProblem(r.problems[0])).toMatch(/models\.json: providers\.loc\.api: must be one of openai-completions/);
		expect(r.find("ok/m2")).toBeDefined();
		expect(r.find("loc/m1")).toBeUndefined();
		expect(r.problemFor("loc")).toBe(r.problems[0]);
		expect(r.problemFor("ok")).toBeUndefined();
	});

	it("bad JSON is one problem that explains any custom provider, not a built-in one", () => {
		writeFileSync(join(dir, "models.json"), '{ "providers": ');
		const r = registry();
		expect(formatConfigProblem(r.problems[0])).toMatch(/models\.json: invalid JSON/);
		expect(r.problemFor("loc")).toBe(r.problems[0]);
		expect(r.problemFor("openai")).toBeUndefined();
		expect(r.getAll().length).toBeGreaterThan(0);
	});

	it("lists every broken provider, not only the first", () => {
		writeFileSync(
			join(dir, "models.json"),
			JSON.stringify({ providers: { a: provider("x"), b: { ...provider("openai-completions"), baseUrl: "ftp://h" } } }),
		);
		expect(registry().problems.map((p) => p.field)).toEqual(["providers.a.api", "providers.b.baseUrl"]);
	});
});

describe("auth.json problems", () => {
	it.each([0o644, 0o666, 0o640])("mode %o is refused with a chmod 600 line, and its keys are not used", (mode) => {
		writeAuth({ groq: { type: "api_key", key: "gsk-from-auth-file-1" } }, mode);
		const r = registry();
		expect(r.getApiKey("groq")).toBeUndefined();
		const problem = formatConfigProblem(r.problems[0]);
		expect(problem).toBe(
			`${join(dir, "auth.json")}: is readable by group or others; its keys are not used until you run: chmod 600 ${join(dir, "auth.json")}`,
		);
		expect(r.keyProblem("groq")).toBe(r.problems[0]);
	});

	it("a broken auth.json is a key problem for a provider without another key, not for one with an env key", () => {
		writeAuth("{ broken");
		const r = registry({ OPENAI_API_KEY: "sk-env-key-123456" });
		expect(formatConfigProblem(r.problems[0])).toMatch(/auth\.json: invalid JSON.*no key of it is used/);
		expect(r.keyProblem("groq")).toBeDefined();
		expect(r.keyProblem("openai")).toBeUndefined();
	});

	it("a bad entry is skipped alone", () => {
		writeAuth({ groq: { key: 42 }, openai: "sk-good-key-12345" });
		const r = registry();
		expect(r.getApiKey("openai")).toBe("sk-good-key-12345");
		expect(r.problems).toEqual([expect.objectContaining({ field: "groq", provider: "groq" })]);
	});
});

describe("secrets the registry knows go to the redactor", () => {
	it("every provider's env key, credential-named env vars, auth.json keys, models.json keys and header values", () => {
		writeAuth({ openrouter: "or-auth-file-key-1" });
		writeFileSync(
			join(dir, "models.json"),
			JSON.stringify({
				providers: {
					loc: {
						...provider("openai-completions"),
						apiKey: "literal-models-key-1",
						headers: { Authorization: "Bearer header-token-123", "X-Title": "My App Title" },
					},
				},
			}),
		);
		registry({
			ANTHROPIC_API_KEY: "anthropic-env-key-1",
			GROQ_API_KEY: "groq-env-key-12345",
			MY_SERVICE_TOKEN: "service-token-123",
			SSH_KEY_PATH: "/home/a/.ssh/id_rsa",
		});
		const text = "anthropic-env-key-1 groq-env-key-12345 service-token-123 or-auth-file-key-1 literal-models-key-1 header-token-123";
		expect(processSecrets.redact(text)).toBe(Array(6).fill("[redacted]").join(" "));
		expect(processSecrets.redact("/home/a/.ssh/id_rsa My App Title")).toBe("/home/a/.ssh/id_rsa My App Title");
	});

	it("a key stored with setApiKey is redacted from then on, and auth.json is written 0600", () => {
		const r = registry();
		r.setApiKey("groq", "gsk-stored-by-login-1");
		expect(processSecrets.redact("x gsk-stored-by-login-1")).toBe("x [redacted]");
		expect(r.problems).toEqual([]);
		expect(new UserModels({ configDir: dir, env: {} }).getApiKey("groq")).toBe("gsk-stored-by-login-1");
	});
});
