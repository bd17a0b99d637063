// Whether a configured server may start. Global servers are the user's own and always may. A project's
// servers (its `.mcp.json` or `.rudder/settings.json`) came with the folder, perhaps from a cloned
// repository, so they start only once the user trusted them: by answering the prompt (remembered per
// folder in the data folder, tied to the exact command line, so a changed command asks again), or in
// their global settings with `enableAllProjectMcpServers` / `enabledMcpjsonServers`.
import { createHash } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { mcpTrustFile } from "../../config/paths.js";
import { folderKey, readTrustFile } from "../trust-file.js";
import type { McpServerConfig, McpTrustSettings } from "./config.js";

type Env = Record<string, string | undefined>;

export type TrustState = "trusted" | "declined" | "unknown";

/** `mcp-trust.json` (src/extensions/trust-file.ts): folder → server name → the decision on that exact configuration. */
interface Decision {
	fingerprint: string;
	allowed: boolean;
}

/** A hash of everything that decides what runs or where requests go; the secrets in it are not readable back. */
export function fingerprint(config: McpServerConfig): string {
	return createHash("sha256").update(JSON.stringify(config.transport)).digest("hex");
}

export interface TrustContext {
	cwd: string;
	env?: Env;
	settings: McpTrustSettings;
}

export function trustOf(
	config: McpServerConfig,
	context: TrustContext,
	file = readTrustFile<Record<string, Decision>>(mcpTrustFile(context.env)),
): TrustState {
	if (config.source === "global" || config.source === "editor") return "trusted";
	if (context.settings.enableAllProjectMcpServers || context.settings.enabledMcpjsonServers.includes(config.name)) return "trusted";
	const decision = file.projects[folderKey(context.cwd)]?.[config.name];
	if (!decision || decision.fingerprint !== fingerprint(config)) return "unknown";
	return decision.allowed ? "trusted" : "declined";
}

/** Trust states of many servers with one read of the file. */
export function trustStates(configs: readonly McpServerConfig[], context: TrustContext): Map<string, TrustState> {
	const file = readTrustFile<Record<string, Decision>>(mcpTrustFile(context.env));
	return new Map(configs.map((c) => [c.name, trustOf(c, context, file)]));
}

/** Records the user's answer for these servers of `cwd`. The file is replaced whole (rename), mode 0600. */
export function rememberTrust(configs: readonly McpServerConfig[], allowed: boolean, context: { cwd: string; env?: Env }): void {
	const path = mcpTrustFile(context.env);
	const file = readTrustFile<Record<string, Decision>>(path);
	const key = folderKey(context.cwd);
	const project = file.projects[key] ?? {};
	for (const config of configs) project[config.name] = { fingerprint: fingerprint(config), allowed };
	file.projects[key] = project;
	mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
	const temp = `${path}.${process.pid}.tmp`;
	writeFileSync(temp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
	renameSync(temp, path);
}
