// Model choice against the real UserModels (temp config folder, controlled env) and, for discovery,
// a real server on 127.0.0.1 listing its models.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Model } from "../../src/ai/types.js";
import { discoveryOptions, type ModelCatalog, NO_MODEL_MESSAGE, resolveModel } from "../../src/cli/resolve-model.js";
import { UserModels } from "../../src/settings/user-models.js";
import { type ScriptedServer, startScriptedServer } from "../helpers/sse-server.js";

const dirs: string[] = [];
let server: ScriptedServer | undefined;
afterEach(async () => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
	await server?.close();
	server = undefined;
});

function registry(env: Record<string, string> = {}, modelsJson?: object): UserModels {
	const configDir = mkdtempSync(join(tmpdir(), "rudder-resolve-"));
	dirs.push(configDir);
	if (modelsJson) writeFileSync(join(configDir, "models.json"), JSON.stringify(modelsJson));
	return new UserModels({ configDir, env });
}

/** The registry with discovery pointed only at `ports` (never at a real server of this machine). */
function catalog(reg: UserModels, ports?: Parameters<UserModels["discoverLocal"]>[0]): ModelCatalog {
	return {
		getAll: () => reg.getAll(),
		getAvailable: () => reg.getAvailable(),
		find: (spec) => reg.find(spec),
		discoverLocal: async () => (ports ? reg.discoverLocal(ports) : []),
	};
}

const demoModel = { id: "demo", provider: "demo", api: "faux" } as Model;
const noDemo = async (): Promise<Model> => {
	throw new Error("the demo must not be used here");
};

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
	const probe = createServer();
	await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
	const port = (probe.address() as { port: number }).port;
	await new Promise<void>((r) => probe.close(() => r()));
	return port;
}

describe("resolveModel", () => {
	it("--model provider/id finds that model, also without a key", async () => {
		const reg = registry();
		const target = reg
			.getAll()
			.filter((m) => m.provider === "openai")
			.at(-1) as Model;
		const choice = await resolveModel(catalog(reg), { model: `openai/${target.id}`, interactive: false, demo: noDemo });
		expect(choice).toMatchObject({ ok: true, model: { provider: "openai", id: target.id } });
	});

	it("--provider prefixes a bare --model id", async () => {
		const reg = registry(
			{},
			{ providers: { mine: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", models: [{ id: "m1" }] } } },
		);
		const choice = await resolveModel(catalog(reg), { model: "m1", provider: "mine", interactive: false, demo: noDemo });
		expect(choice).toMatchObject({ ok: true, model: { provider: "mine", id: "m1" } });
	});

	it("an unknown --model or --provider is exit 2 with one line", async () => {
		expect(await resolveModel(catalog(registry()), { model: "nope/x", interactive: true, demo: noDemo })).toEqual({
			ok: false,
			exitCode: 2,
			message: 'unknown model "nope/x" (see rudder --list-models)',
		});
		expect(await resolveModel(catalog(registry()), { provider: "nope", interactive: true, demo: noDemo })).toMatchObject({
			ok: false,
			exitCode: 2,
		});
	});

	it("with a key, picks a model of that provider; the settings default wins when usable", async () => {
		const reg = registry({ ANTHROPIC_API_KEY: "sk-ant-test" });
		const first = await resolveModel(catalog(reg), { interactive: false, demo: noDemo });
		expect(first).toMatchObject({ ok: true, model: { provider: "anthropic" } });
		const anthropicModels = reg.getAll().filter((m) => m.provider === "anthropic");
		const last = anthropicModels.at(-1) as Model;
		const preferred = await resolveModel(catalog(reg), { defaultModel: `anthropic/${last.id}`, interactive: false, demo: noDemo });
		expect(preferred).toMatchObject({ ok: true, model: { id: last.id } });
		// A default whose provider has no key is passed over.
		const unusable = await resolveModel(catalog(reg), {
			defaultModel: `openai/${reg.getAll().find((m) => m.provider === "openai")?.id}`,
			interactive: false,
			demo: noDemo,
		});
		expect(unusable).toMatchObject({ ok: true, model: { provider: "anthropic" } });
	});

	it("falls back to a discovered local server", async () => {
		server = await startScriptedServer();
		server.enqueue({ kind: "status", status: 200, body: JSON.stringify({ object: "list", data: [{ id: "qwen-local" }] }) });
		const dead = await closedPort();
		const port = Number(new URL(server.url).port);
		const choice = await resolveModel(catalog(registry(), { ports: { llamacpp: port, ollama: dead, lmstudio: dead, vllm: dead } }), {
			interactive: false,
			demo: noDemo,
		});
		expect(choice).toMatchObject({ ok: true, model: { provider: "llamacpp", id: "qwen-local", baseUrl: `${server.url}/v1` } });
		expect(server.requests[0]).toMatchObject({ method: "GET", url: "/v1/models" });
	});

	it("with nothing available: the demo when interactive, else exit 2 with the set-up message", async () => {
		const interactive = await resolveModel(catalog(registry()), { interactive: true, demo: async () => demoModel });
		expect(interactive).toEqual({ ok: true, model: demoModel });
		const printMode = await resolveModel(catalog(registry()), { interactive: false, demo: noDemo });
		expect(printMode).toEqual({ ok: false, exitCode: 2, message: NO_MODEL_MESSAGE });
		expect(NO_MODEL_MESSAGE).toMatch(/ANTHROPIC_API_KEY.*OPENAI_API_KEY.*OpenAI-compatible server/);
	});
});

describe("discoveryOptions", () => {
	it("unset probes defaults, empty turns discovery off, a list moves ports", () => {
		expect(discoveryOptions(undefined)).toEqual({});
		expect(discoveryOptions("")).toBeUndefined();
		expect(discoveryOptions("ollama=11500, vllm=9000")).toEqual({ ports: { ollama: 11500, vllm: 9000 } });
	});

	it("a malformed value is one clear error", () => {
		expect(() => discoveryOptions("ollama=abc")).toThrow(
			'RUDDER_DISCOVERY_PORTS: "ollama=abc" is not <ollama|llamacpp|lmstudio|vllm>=<port>',
		);
		expect(() => discoveryOptions("redis=6379")).toThrow(/RUDDER_DISCOVERY_PORTS/);
	});
});
