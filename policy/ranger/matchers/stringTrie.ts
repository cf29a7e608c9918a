/**
 * A character trie of ids keyed by strings, answering "which keys are prefixes of this text".
 * Used for `abc*` policy values (and, over reversed strings, for `*abc`).
 */
interface TrieNode {
  ids: number[];
  children: Map<number, TrieNode> | undefined;
}

function node(): TrieNode {
  return { ids: [], children: undefined };
}

export class StringTrie {
  private readonly root = node();

  insert(key: string, id: number): void {
    let n = this.root;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      if (!n.children) n.children = new Map();
      let next = n.children.get(c);
      if (!next) n.children.set(c, (next = node()));
      n = next;
    }
    n.ids.push(id);
  }

  /** Calls `found` for the ids of every inserted key that is a prefix of `text` ("" included). */
  forEachPrefixOf(text: string, found: (id: number) => void): void {
    let n: TrieNode | undefined = this.root;
    for (let i = 0; ; i++) {
      for (const id of n.ids) found(id);
      if (i >= text.length || !n.children) return;
      n = n.children.get(text.charCodeAt(i));
      if (!n) return;
    }
  }
}

export function reverse(s: string): string {
  let out = '';
  for (let i = s.length - 1; i >= 0; i--) out += s[i];
  return out;
}
