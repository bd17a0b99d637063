// Counts `new Intl.Segmenter` from now until `restore()`: the first one of a process loads ICU's break
// data, so start-up and plain-text paths are tested to build none.
export interface SegmenterCount {
	made(): number;
	restore(): void;
}

export function countNewSegmenters(): SegmenterCount {
	const intl = Intl as { Segmenter: typeof Intl.Segmenter };
	const Original = intl.Segmenter;
	let made = 0;
	intl.Segmenter = class extends Original {
		constructor(...args: ConstructorParameters<typeof Original>) {
			super(...args);
			made++;
		}
	};
	return { made: () => made, restore: () => (intl.Segmenter = Original) };
}
