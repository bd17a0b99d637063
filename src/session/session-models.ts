// The model and thinking level of a session: what the user can pick (the registry's, with the one in
// use), switching (recorded in the session file), and the thinking level clamped to what the model supports.
import type { Agent } from "../agent/index.js";
import type { Model, ThinkingLevel } from "../ai/index.js";
import type { SessionFile } from "./session-file.js";
import type { SessionModelRegistry } from "./session-keys.js";
import type { SessionEvent } from "./types.js";

export interface SessionModelsDeps {
	agent: Agent;
	registry: SessionModelRegistry | undefined;
	file: SessionFile;
	emit: (event: SessionEvent) => void;
	notify: (level: "warning", text: string) => void;
}

export function clampThinking(model: Model, level: ThinkingLevel): ThinkingLevel {
	return model.reasoning ? level : "off";
}

export class SessionModels {
	constructor(private readonly deps: SessionModelsDeps) {}

	setModel(model: Model): void {
		const s = this.deps.agent.state;
		s.model = model;
		s.thinkingLevel = clampThinking(model, s.thinkingLevel);
		this.deps.file.log?.appendModelChange(model.provider, model.id);
		this.deps.emit({ type: "model_changed", model, thinkingLevel: s.thinkingLevel });
	}

	setThinkingLevel(level: ThinkingLevel): void {
		const s = this.deps.agent.state;
		const next = clampThinking(s.model, level);
		if (next !== level)
			this.deps.notify(
				"warning",
				s.model.reasoning
					? `${s.model.provider}/${s.model.id} does not support thinking level "${level}"; thinking: ${next}`
					: `${s.model.provider}/${s.model.id} does not support thinking; thinking stays off`,
			);
		s.thinkingLevel = next;
		this.deps.file.log?.appendThinkingLevel(next);
		this.deps.emit({ type: "model_changed", model: s.model, thinkingLevel: next });
	}

	/** Models the user can pick, the one in use first when the registry does not list it. */
	available(): Model[] {
		const current = this.deps.agent.state.model;
		const models = this.deps.registry?.getAvailable() ?? [];
		return models.some((m) => m.provider === current.provider && m.id === current.id) ? models : [current, ...models];
	}

	find(pattern: string): Model | undefined {
		return this.deps.registry?.find(pattern) ?? this.available().find((m) => `${m.provider}/${m.id}`.includes(pattern));
	}
}
