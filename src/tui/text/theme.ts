// Colours in one place. With NO_COLOR set (https://no-color.org) every colour is dropped; bold, dim
// and inverse stay, since they carry meaning without colour.

export const colorsEnabled = (env: Record<string, string | undefined> = process.env): boolean => !env.NO_COLOR;

const enabled = colorsEnabled();

/** The colour to pass to Ink's `<Text color>`, or undefined under NO_COLOR. */
export const color = (name: string | undefined): string | undefined => (enabled ? name : undefined);

export const theme = {
	user: "cyan",
	accent: "blue",
	error: "red",
	warning: "yellow",
	success: "green",
	muted: "gray",
	heading: "magenta",
	link: "blue",
	code: "yellow",
} as const;
