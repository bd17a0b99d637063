// Where Rudder keeps its files. One source of truth, read by the model registry, settings and sessions.
import { homedir } from "node:os";
import { join } from "node:path";

type Env = Record<string, string | undefined>;

/** Config folder: `$RUDDER_HOME`, else `$XDG_CONFIG_HOME/rudder`, else `~/.config/rudder`. */
export function configDir(env: Env = process.env): string {
	if (env.RUDDER_HOME) return env.RUDDER_HOME;
	return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "rudder");
}

/** Data folder (sessions, input history): `$RUDDER_HOME/data`, else `$XDG_DATA_HOME/rudder`, else `~/.local/share/rudder`. */
export function dataDir(env: Env = process.env): string {
	if (env.RUDDER_HOME) return join(env.RUDDER_HOME, "data");
	return join(env.XDG_DATA_HOME || join(homedir(), ".local", "share"), "rudder");
}
