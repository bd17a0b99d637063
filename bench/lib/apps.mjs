// How to launch each app under test against the local mock server, each with its own temp config.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const refDir = join(root, "bench", ".ref");
const piCli = join(refDir, "node_modules", "@mariozechner", "pi-coding-agent", "dist", "cli.js");

export function referenceInstalled() {
	return existsSync(piCli);
}

const provider = (baseUrl) => ({
	baseUrl,
	api: "openai-completions",
	apiKey: "mock-key",
	compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
	models: [{ id: "mock-1", name: "mock-1", contextWindow: 1_000_000, maxTokens: 100_000 }],
});

// One cache folder for every Rudder launch of a bench run, as a user's ~/.cache persists between
// launches: the first launch writes the code cache (bin/load-bundle.js), the later ones use it.
const rudderCache = mkdtempSync(join(tmpdir(), "rudder-bench-cache-"));
process.once("exit", () => rmSync(rudderCache, { recursive: true, force: true }));

/** Each app: {name, command, env, cwd}; `ready(screen)` is true once the input is drawn. */
export function rudderApp(baseUrl, extraArgs = "--no-session") {
	const home = mkdtempSync(join(tmpdir(), "rudder-bench-"));
	writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { mock: provider(baseUrl) } }));
	const cwd = mkdtempSync(join(tmpdir(), "rudder-bench-cwd-"));
	return {
		name: "rudder",
		home,
		cwd,
		command: `node ${join(root, "bin", "rudder.js")} --model mock/mock-1 ${extraArgs}`,
		env: { RUDDER_HOME: home, HOME: home, XDG_CACHE_HOME: rudderCache, NO_UPDATE_NOTIFIER: "1", RUDDER_DISCOVERY_PORTS: "" },
		ready: (screen) => /mock-1/.test(screen),
	};
}

/** The launch floor: a bare `node -e` that prints one line and stays, in the same pane and harness. */
export function nodeFloorApp() {
	const home = mkdtempSync(join(tmpdir(), "node-bench-"));
	const cwd = mkdtempSync(join(tmpdir(), "node-bench-cwd-"));
	const script = "console.log('mock-1 ready'); setInterval(() => {}, 1 << 30)";
	return {
		name: "node",
		home,
		cwd,
		command: `node -e "${script}"`,
		env: { HOME: home },
		ready: (screen) => /mock-1 ready/.test(screen),
	};
}

/** The fixture MCP server of the tests (the official SDK over stdio). */
const mcpServer = join(root, "test", "fixtures", "mcp", "stdio-server.mjs");

/** Rudder with two MCP servers in its global settings (they start without asking, after the first frame). */
export function rudderAppWithMcp(baseUrl, extraArgs) {
	const app = rudderApp(baseUrl, extraArgs);
	const server = { command: process.execPath, args: [mcpServer] };
	writeFileSync(join(app.home, "settings.json"), JSON.stringify({ mcpServers: { one: server, two: server } }));
	return { ...app, name: "rudder-mcp" };
}

export function piApp(baseUrl, extraArgs = "--no-session") {
	const home = mkdtempSync(join(tmpdir(), "pi-bench-"));
	const agentDir = join(home, ".pi", "agent");
	mkdirSync(agentDir, { recursive: true });
	writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { mock: provider(baseUrl) } }));
	writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ quietStartup: true }));
	const cwd = mkdtempSync(join(tmpdir(), "pi-bench-cwd-"));
	return {
		name: "pi",
		home,
		cwd,
		command: `node ${piCli} --provider mock --model mock-1 --offline --no-extensions --no-skills ${extraArgs}`,
		env: { HOME: home, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0" },
		ready: (screen) => /mock-1/.test(screen),
	};
}
