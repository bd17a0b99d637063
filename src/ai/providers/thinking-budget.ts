// Token budgets for providers that size thinking in tokens (Anthropic, Google) rather than by effort
// name. One table so both providers agree on what "medium" costs.
import type { Model, ReasoningLevel, ThinkingBudgets } from "../types.js";

/** Defaults when neither the caller nor the model names a budget. */
export const DEFAULT_THINKING_BUDGETS: Required<ThinkingBudgets> = {
	minimal: 1024,
	low: 2048,
	medium: 8192,
	high: 16384,
};

/**
 * The budget for `level`: the caller's `thinkingBudgets` first, then a numeric entry in the model's
 * `thinkingLevelMap`, then the defaults. `xhigh` has no budget of its own and uses `high`'s.
 */
export function thinkingBudgetFor(level: ReasoningLevel, model: Pick<Model, "thinkingLevelMap">, budgets?: ThinkingBudgets): number {
	const key: keyof ThinkingBudgets = level === "xhigh" ? "high" : level;
	const fromCaller = budgets?.[key];
	if (fromCaller !== undefined) return fromCaller;
	const fromModel = model.thinkingLevelMap?.[level];
	if (typeof fromModel === "number") return fromModel;
	return DEFAULT_THINKING_BUDGETS[key];
}
