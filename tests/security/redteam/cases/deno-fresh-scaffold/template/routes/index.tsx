import Counter from "../islands/Counter.tsx";
import { useSignal } from "@preact/signals";

export default function Home() {
  const count = useSignal(3);
  return (
    <main class="mx-auto max-w-screen-md px-4 py-8">
      <h1 class="text-4xl font-bold">Welcome</h1>
      <p class="my-4">Edit <code>routes/index.tsx</code> and save to reload.</p>
      <Counter count={count} />
    </main>
  );
}
