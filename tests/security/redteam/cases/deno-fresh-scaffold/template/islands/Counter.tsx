import type { Signal } from "@preact/signals";

export default function Counter(props: { count: Signal<number> }) {
  return (
    <div class="flex gap-8 py-6">
      <button type="button" onClick={() => props.count.value -= 1}>-1</button>
      <p class="text-3xl tabular-nums">{props.count}</p>
      <button type="button" onClick={() => props.count.value += 1}>+1</button>
    </div>
  );
}
