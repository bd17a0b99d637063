// The built CLI against a scripted OpenAI-compatible server on 127.0.0.1: config problems are said at
// start and name the file and field; keys never reach stderr, stdout, session files, the model or the
// model's commands; `-p "/login …"` stores the key without a request.
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textBody, toolCallBody } from "../helpers/openai-chunks.js";
import { type CliHome, cliPerTest, runCli } from "../helpers/rudder-cli.js";
import type { ScriptedServer } from "../helpers/sse-server.js";

const LONG = 60_000;
const KEY = "sk-mock-secret-0123456789abcdef";
const cli = cliPerTest();

/** models.json with one provider "mock" at the scripted server, with extra provider fields. */
async function setUp(fields: object = {}): Promise<{ server: ScriptedServer; home: CliHome }> {
	const { server, home } = await cli.serverAndBareHome();
	const models = { providers: { mock: { baseUrl: `${server.url}/v1`, api: "openai-completions", models: [{ id: "mock-1" }], ...fields } } };
	writeFileSync(join(home.rudderHome, "models.json"), JSON.stringify(models));
	return { server, home };
}

/** Every file under `dir`, recursively, as text. */
function allFiles(dir: string): { path: string; text: string }[] {
	return readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((e) => e.isFile())
		.map((e) => {
			const path = join(e.parentPath, e.name);
			return { path, text: readFileSync(path, "utf8") };
		});
}

describe("config problems at start", () => {
	it('--model loc/m1 with "api": "openai-chat" names the file and field, at start and in the failure', { timeout: LONG }, async () => {
		const { home } = await setUp();
		writeFileSync(
			join(home.rudderHome, "models.json"),
			JSON.stringify({ providers: { loc: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-chat", models: [{ id: "m1" }] } } }),
		);
		const result = await runCli(["-p", "hi", "--model", "loc/m1"], home);
		expect(result.code).toBe(2);
		const lines = result.stderr.trimEnd().split("\n");
		expect(lines[0]).toMatch(/^rudder: .*models\.json: providers\.loc\.api: must be one of openai-completions/);
		expect(lines[1]).toMatch(/^rudder: unknown model "loc\/m1": .*models\.json: providers\.loc\.api: must be one of/);
		expect(lines).toHaveLength(2);
	});

	it("bad JSON in models.json is said once and explains the unknown model", { timeout: LONG }, async () => {
		const { home } = await setUp();
		writeFileSync(join(home.rudderHome, "models.json"), "{ broken");
		const result = await runCli(["-p", "hi", "--model", "mock/mock-1"], home);
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/unknown model "mock\/mock-1": .*models\.json: invalid JSON/);
	});

	it("an auth.json readable by others is refused with chmod 600, and no request goes out without the key", { timeout: LONG }, async () => {
		const { server, home } = await setUp({ apiKey: "MOCK_API_KEY" });
		const auth = join(home.rudderHome, "auth.json");
		writeFileSync(auth, JSON.stringify({ mock: { type: "api_key", key: KEY } }));
		chmodSync(auth, 0o644);
		const result = await runCli(["-p", "hi", "--model", "mock/mock-1"], home);
		expect(result.stderr).toContain(`chmod 600 ${auth}`);
		expect(result.code).not.toBe(0);
		expect(server.requests).toHaveLength(0);
	});

	it("settings.json problems are one stderr line each, and the run goes on", { timeout: LONG }, async () => {
		const { server, home } = await setUp();
		writeFileSync(join(home.rudderHome, "settings.json"), JSON.stringify({ steeringMode: "x", retry: { tries: 2 } }));
		server.enqueue({ kind: "sse", chunks: [textBody("fine")] });
		const result = await runCli(["-p", "hi", "--model", "mock/mock-1"], home);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("fine\n");
		expect(result.stderr.trimEnd().split("\n")).toEqual([
			expect.stringMatching(/settings\.json: steeringMode: must be one of/),
			expect.stringMatching(/settings\.json: retry\.tries: is not a known setting/),
		]);
	});

	it('a project settings file of {"valueOf":1} (and friends, nested too) is one line each; the run goes on', {
		timeout: LONG,
	}, async () => {
		const { server, home } = await setUp();
		mkdirSync(join(home.cwd, ".rudder"), { recursive: true });
		writeFileSync(join(home.cwd, ".rudder", "settings.json"), '{"valueOf":1,"compaction":{"hasOwnProperty":1,"toLocaleString":2}}');
		server.enqueue({ kind: "sse", chunks: [textBody("fine")] });
		const result = await runCli(["-p", "hi", "--model", "mock/mock-1"], home);
		expect(result.stderr.trimEnd().split("\n")).toEqual([
			expect.stringMatching(/\.rudder\/settings\.json: valueOf: is not a known setting$/),
			expect.stringMatching(/\.rudder\/settings\.json: compaction\.hasOwnProperty: is not a known setting$/),
			expect.stringMatching(/\.rudder\/settings\.json: compaction\.toLocaleString: is not a known setting$/),
		]);
		expect(result.stdout).toBe("fine\n");
		expect(result.code).toBe(0);
	});

	it("an untrusted project's defaultModel waits: one notice, the user's model answers", { timeout: LONG }, async () => {
		const { server, home } = await setUp();
		writeFileSync(join(home.rudderHome, "settings.json"), JSON.stringify({ defaultModel: "mock/mock-1" }));
		mkdirSync(join(home.cwd, ".rudder"), { recursive: true });
		writeFileSync(join(home.cwd, ".rudder", "settings.json"), JSON.stringify({ defaultModel: "mock/other", checkpoints: false }));
		server.enqueue({ kind: "sse", chunks: [textBody("fine")] });
		const result = await runCli(["-p", "hi"], home);
		expect(result.stderr.trimEnd().split("\n")).toEqual([
			expect.stringMatching(
				/Ignored defaultModel "mock\/other", checkpoints false in .*\.rudder\/settings\.json: this folder is not trusted/,
			),
		]);
		expect(result.stdout).toBe("fine\n");
		expect((server.requests[0].body as { model: string }).model).toBe("mock-1");
	});
});

describe("secrets", () => {
	it("a 401 body echoing the key is redacted on stderr, in json output and in the session file", { timeout: LONG }, async () => {
		const { server, home } = await setUp({ apiKey: KEY });
		const body = JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}` } });
		server.enqueue({ kind: "status", status: 401, body }, { kind: "status", status: 401, body });
		const print = await runCli(["-p", "hi", "--model", "mock/mock-1"], home);
		expect(print.code).toBe(1);
		expect(print.stderr).toContain("Incorrect API key provided: [redacted]");
		const json = await runCli(["--mode", "json", "hi", "--model", "mock/mock-1"], home);
		expect(json.stdout).toContain("[redacted]");
		for (const out of [print.stdout, print.stderr, json.stdout, json.stderr]) expect(out).not.toContain(KEY);
		const files = allFiles(join(home.rudderHome, "data"));
		expect(files.length).toBeGreaterThan(0);
		for (const file of files) expect(file.text, file.path).not.toContain(KEY);
	});

	it('-p "/login groq KEY" stores the key (0600) without a request, and it reaches no session file', { timeout: LONG }, async () => {
		const { server, home } = await setUp();
		const result = await runCli(["-p", `/login groq ${KEY}`, "--model", "mock/mock-1"], home);
		expect(result.code).toBe(0);
		expect(server.requests).toHaveLength(0);
		const auth = join(home.rudderHome, "auth.json");
		expect(JSON.parse(readFileSync(auth, "utf8")).groq.key).toBe(KEY);
		expect(statSync(auth).mode & 0o777).toBe(0o600);
		for (const file of allFiles(home.rudderHome).filter((f) => f.path !== auth)) expect(file.text, file.path).not.toContain(KEY);
	});

	it("the model's commands get no provider key or credential variable unless shell.passEnv names it", { timeout: LONG }, async () => {
		const { server, home } = await setUp();
		writeFileSync(join(home.rudderHome, "settings.json"), JSON.stringify({ shell: { passEnv: ["PASSED_TOKEN"] } }));
		const command =
			'echo "openai=${OPENAI_API_KEY:-unset} groq=${GROQ_API_KEY:-unset} pw=${DB_PASSWORD:-unset} passed=${PASSED_TOKEN:+set}"';
		server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command })] }, { kind: "sse", chunks: [textBody("done")] });
		home.env.OPENAI_API_KEY = "sk-openai-env-0123456789";
		home.env.GROQ_API_KEY = "gsk-groq-env-0123456789";
		home.env.DB_PASSWORD = "hunter2-password";
		home.env.PASSED_TOKEN = "passed-token-value-1";
		const result = await runCli(["-p", "run it", "--model", "mock/mock-1", "--permission-mode", "yolo"], home);
		expect(result.code).toBe(0);
		const toolResult = server.requests[1].body.messages.find((m: any) => m.role === "tool");
		expect(toolResult.content).toContain("openai=unset groq=unset pw=unset passed=set");
	});

	it("rpc get_state masks models.json header values", { timeout: LONG }, async () => {
		await setUp({ headers: { Authorization: `Bearer ${KEY}`, "X-Title": "Rudder tests" } });
		const client = cli.rpc([], { session: true });
		try {
			client.send({ id: 1, type: "get_state" });
			const state = await client.waitFor((l) => l.type === "response" && l.id === 1);
			expect(state.data.model.headers).toEqual({ Authorization: "[redacted]", "X-Title": "[redacted]" });
		} finally {
			const end = await client.end();
			expect(end.stdout).not.toContain(KEY);
		}
	});
});
