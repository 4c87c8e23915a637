/** One control for choosing one of a few views or filters: a row of toggle buttons, the chosen one pressed. */
import type { ComponentChildren } from "preact"

export function Segmented<T extends string>(props: {
  /** what the choice is about, for screen readers */
  readonly label: string
  readonly value: T
  readonly options: ReadonlyArray<readonly [T, ComponentChildren]>
  readonly onChange: (value: T) => void
}) {
  return (
    <div class="segmented" role="group" aria-label={props.label}>
      {props.options.map(([value, text]) => (
        <button type="button" key={value} class={`segment${props.value === value ? " segment-on" : ""}`} aria-pressed={props.value === value} onClick={() => props.onChange(value)}>
          {text}
        </button>
      ))}
    </div>
  )
}
