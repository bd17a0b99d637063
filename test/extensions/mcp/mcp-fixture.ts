// MCP test set-up: the fixture server's stdio command and config writers for the session fixture's folders.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { putFile } from "../../helpers/put-file.js";
import type { Fixture } from "../../session/session-fixture.js";

export const stdioServerPath = fileURLToPath(new URL("../../fixtures/mcp/stdio-server.mjs", import.meta.url));

/** A stdio server entry running the fixture; `marker` collects its start / cancel lines. */
export function stdioServer(marker?: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
	return { command: process.execPath, args: [stdioServerPath, ...(marker ? [marker] : [])], ...extra };
}

export function writeGlobalSettings(fx: Fixture, settings: Record<string, unknown>): void {
	putFile(join(fx.env.RUDDER_HOME, "settings.json"), JSON.stringify(settings));
}

export function writeMcpJson(fx: Fixture, servers: Record<string, unknown>): void {
	putFile(join(fx.cwd, ".mcp.json"), JSON.stringify({ mcpServers: servers }));
}

export function markerLines(path: string): string[] {
	try {
		return readFileSync(path, "utf8").trim().split("\n").filter(Boolean);
	} catch {
		return [];
	}
}

/** Polls `check` until it holds (a child process writes the marker on its own time). */
export async function eventually(check: () => boolean, timeoutMs = 10_000): Promise<void> {
	const until = Date.now() + timeoutMs;
	while (!check()) {
		if (Date.now() > until) throw new Error("condition not met in time");
		await new Promise((r) => setTimeout(r, 20));
	}
}

export const featureServerPath = fileURLToPath(new URL("../../fixtures/mcp/feature-stdio.mjs", import.meta.url));

/** A stdio entry running the feature server (McpServer: forms, prompts, resources, progress; `tools` extra tools). */
export function featureServer(tools = 0, env: Record<string, string> = {}): Record<string, unknown> {
	return { command: process.execPath, args: [featureServerPath, ...(tools ? ["--tools", String(tools)] : [])], env };
}
