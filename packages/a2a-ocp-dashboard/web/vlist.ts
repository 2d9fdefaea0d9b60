/**
 * A virtualized list: only the rows in view (plus a margin) are in the DOM,
 * so a thousand agents cost a few dozen elements. Rows have a fixed height.
 * The container is focusable: arrows, Page Up/Down, Home and End scroll it.
 */
export class VirtualList<T> {
  #items: T[] = [];
  readonly #spacer = document.createElement("div");
  #scheduled = false;

  constructor(
    readonly container: HTMLElement,
    readonly rowHeight: number,
    readonly render: (item: T, row: HTMLElement) => void,
  ) {
    this.#spacer.className = "spacer";
    // A focusable list, so that the keyboard can scroll it.
    container.setAttribute("role", "list");
    container.setAttribute("aria-label", container.dataset["label"] ?? "");
    container.tabIndex = 0;
    container.append(this.#spacer);
    container.addEventListener("scroll", () => this.#schedule());
    container.addEventListener("keydown", (event) => this.#key(event));
    new ResizeObserver(() => this.#schedule()).observe(container);
  }

  set items(items: T[]) {
    this.#items = items;
    this.#schedule();
  }

  get items(): T[] {
    return this.#items;
  }

  #key(event: KeyboardEvent): void {
    const page = this.container.clientHeight - this.rowHeight;
    const by: Record<string, number> = {
      ArrowDown: this.rowHeight,
      ArrowUp: -this.rowHeight,
      PageDown: page,
      PageUp: -page,
      Home: -Infinity,
      End: Infinity,
    };
    const delta = by[event.key];
    if (delta === undefined) return;
    event.preventDefault();
    const max = this.container.scrollHeight;
    this.container.scrollTop = Math.max(0, Math.min(max, this.container.scrollTop + delta));
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    requestAnimationFrame(() => {
      this.#scheduled = false;
      this.#draw();
    });
  }

  #draw(): void {
    const { rowHeight } = this;
    this.#spacer.style.height = `${this.#items.length * rowHeight}px`;
    const top = this.container.scrollTop;
    const first = Math.max(0, Math.floor(top / rowHeight) - 5);
    const count = Math.ceil(this.container.clientHeight / rowHeight) + 10;
    const rows: HTMLElement[] = [];
    for (let i = first; i < Math.min(this.#items.length, first + count); i++) {
      const row = document.createElement("div");
      row.className = "row";
      row.setAttribute("role", "listitem");
      row.style.transform = `translateY(${i * rowHeight}px)`;
      this.render(this.#items[i]!, row);
      rows.push(row);
    }
    this.#spacer.replaceChildren(...rows);
  }
}

/** `el("span", "text", { class: "x" })`: a small element helper (text only, never HTML). */
export function el(
  tag: string,
  text?: string,
  attributes: Record<string, string> = {},
): HTMLElement {
  const element = document.createElement(tag);
  if (text !== undefined) element.textContent = text;
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

/** "3 s ago", "2 min ago", … */
export function ago(at: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  return `${Math.floor(s / 3600)} h ago`;
}
