// The other assistants, run offline against the bench mock of their own API, each with a temp HOME that
// holds exactly the config that gets it past sign-in, trust and onboarding. Pinned versions; installed
// by the bench into bench/.ref (never in --quick or CI).
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { refDir } from "./apps.mjs";

/** The packages `npm install --prefix bench/.ref` gets, by app; `bin` is what the app runs. */
export const REFERENCES = {
	claude: {
		label: "Claude Code",
		packages: ["@anthropic-ai/claude-code@2.1.332"],
		version: "2.1.332",
		bin: join(refDir, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe"),
	},
	codex: {
		label: "Codex",
		packages: ["@openai/codex@0.171.0"],
		version: "0.171.0",
		bin: join(refDir, "node_modules", "@openai", "codex", "bin", "codex.js"),
	},
	gemini: {
		label: "Gemini CLI",
		packages: ["@google/gemini-cli@0.61.0"],
		version: "0.61.0",
		bin: join(refDir, "node_modules", "@google", "gemini-cli", "bundle", "gemini.js"),
	},
};

export const installed = (name) => existsSync(REFERENCES[name].bin);

const origin = (baseUrl) => baseUrl.replace(/\/v1\/?$/, "");
const API_KEY = "sk-ant-api03-bench-0000000000000000000000000000000000000000-local";

function tempDirs(name) {
	const home = realpathSync(mkdtempSync(join(tmpdir(), `${name}-bench-`)));
	const cwd = realpathSync(mkdtempSync(join(tmpdir(), `${name}-bench-cwd-`)));
	return { home, cwd };
}

/** Claude Code (native binary): one streamed `POST /v1/messages?beta=true` per prompt. */
export function claudeApp(baseUrl) {
	const { home, cwd } = tempDirs("claude");
	const config = {
		hasCompletedOnboarding: true,
		theme: "dark",
		customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
		projects: { [cwd]: { hasTrustDialogAccepted: true, allowedTools: [] } },
	};
	writeFileSync(join(home, ".claude.json"), JSON.stringify(config));
	return {
		name: "claude",
		home,
		cwd,
		command: `${REFERENCES.claude.bin} --model sonnet`,
		env: {
			HOME: home,
			ANTHROPIC_BASE_URL: origin(baseUrl),
			ANTHROPIC_API_KEY: API_KEY,
			DISABLE_TELEMETRY: "1",
			DISABLE_AUTOUPDATER: "1",
			DISABLE_ERROR_REPORTING: "1",
			CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
		},
		ready: (screen) => /Sonnet [0-9.]+/.test(screen) && /❯/.test(screen),
		modelShown: (screen) => /Sonnet [0-9.]+/.test(screen),
	};
}

/** Codex (native binary behind a node launcher) with a Responses-API provider pointing at the mock. */
export function codexApp(baseUrl) {
	const { home, cwd } = tempDirs("codex");
	const codexHome = join(home, ".codex");
	mkdirSync(codexHome, { recursive: true });
	const toml = [
		`model = "mock-1"`,
		`model_provider = "mock"`,
		`check_for_update_on_startup = false`,
		``,
		`[model_providers.mock]`,
		`name = "mock"`,
		`base_url = "${baseUrl}"`,
		`wire_api = "responses"`,
		`env_key = "MOCK_API_KEY"`,
		``,
		`[projects."${cwd}"]`,
		`trust_level = "trusted"`,
		``,
		`[analytics]`,
		`enabled = false`,
	].join("\n");
	writeFileSync(join(codexHome, "config.toml"), `${toml}\n`);
	return {
		name: "codex",
		home,
		cwd,
		command: `node ${REFERENCES.codex.bin} --no-daemon`,
		env: { HOME: home, CODEX_HOME: codexHome, MOCK_API_KEY: "mock-key", NO_UPDATE_NOTIFIER: "1" },
		ready: (screen) => /mock-1/.test(screen),
	};
}

/** Gemini CLI (node) with an API key, the mock as its base URL and the workspace trusted. */
export function geminiApp(baseUrl) {
	const { home, cwd } = tempDirs("gemini");
	mkdirSync(join(home, ".gemini"), { recursive: true });
	const settings = {
		security: { auth: { selectedType: "gemini-api-key" } },
		general: { disableAutoUpdate: true, disableUpdateNag: true },
		privacy: { usageStatisticsEnabled: false },
		telemetry: { enabled: false },
	};
	writeFileSync(join(home, ".gemini", "settings.json"), JSON.stringify(settings));
	return {
		name: "gemini",
		home,
		cwd,
		command: `node ${REFERENCES.gemini.bin}`,
		env: {
			HOME: home,
			GEMINI_API_KEY: "mock-key",
			GOOGLE_GEMINI_BASE_URL: origin(baseUrl),
			GEMINI_CLI_TRUST_WORKSPACE: "true",
			NO_UPDATE_NOTIFIER: "1",
		},
		ready: (screen) => /Type your message/.test(screen),
		// Its footer names the model choice ("Auto": the router picks per request).
		modelShown: (screen) => /\/model\s*\n.*\bAuto\b/.test(screen),
	};
}
