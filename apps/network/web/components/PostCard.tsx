import { idempotencyToken } from "@persona/platform/once";
import Link from "next/link";
import { REACTION_LABEL, REACTIONS, type PostView } from "@/network/lib/network";
import { ago } from "@/network/lib/format";
import { Avatar } from "./Logo";

/** One post in the feed: author, body, reaction counts, the persona's reaction buttons, comments and a comment box. */
export function PostCard({ post, me, now, back }: { post: PostView; me: string; now: string; back: string }) {
  const author = post.author_name ?? me;
  return (
    <article className="gl-card gl-post" data-testid="post" data-id={post.id} data-author={author} data-reactions={post.reactions} data-mine={post.mine ?? ""}>
      <header className="gl-post-head">
        <Avatar name={author} size={44} />
        <div>
          {post.author_id ? <Link href={`/in/${post.author_id}`} className="gl-strong">{author}</Link> : <Link href="/in/me" className="gl-strong">{author}</Link>}
          <div className="gl-muted gl-small">{post.author_headline ?? "You"}</div>
          <div className="gl-muted gl-small">{ago(post.created_at, now)}</div>
        </div>
      </header>
      <p className="gl-post-body" data-testid="post-body">{post.body}</p>
      <div className="gl-post-stats gl-muted gl-small">
        <span data-testid="reaction-count">{post.reactions ? `${post.top.map((r) => REACTION_LABEL[r]).join(" · ")} ${post.reactions}` : "Be the first to react"}</span>
        <span>{post.comments.length ? `${post.comments.length} comment${post.comments.length > 1 ? "s" : ""}` : ""}</span>
      </div>
      <form action="/api/reactions" method="post" className="gl-reactions">
        <input type="hidden" name="_idem" value={idempotencyToken()} />
        <input type="hidden" name="post" value={post.id} />
        <input type="hidden" name="back" value={back} />
        {REACTIONS.map((r) => (
          <button key={r} type="submit" name="reaction" value={r} className={`gl-react${post.mine === r ? " gl-on" : ""}`} aria-pressed={post.mine === r} data-testid={`react-${r}`}>
            {REACTION_LABEL[r]}
          </button>
        ))}
      </form>
      {post.comments.length ? (
        <ul className="gl-comments">
          {post.comments.map((c) => (
            <li key={c.id} data-testid="comment">
              <Avatar name={c.name ?? me} size={28} />
              <div className="gl-comment-bubble">
                <span className="gl-strong">{c.name ?? me}</span> <span className="gl-muted gl-small">{ago(c.created_at, now)}</span>
                <p>{c.body}</p>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      <form action="/api/comments" method="post" className="gl-comment-form">
        <input type="hidden" name="_idem" value={idempotencyToken()} />
        <input type="hidden" name="post" value={post.id} />
        <input type="hidden" name="back" value={back} />
        <input name="body" placeholder="Add a comment…" aria-label="Add a comment" maxLength={1250} />
        <button type="submit" className="gl-secondary">Comment</button>
      </form>
    </article>
  );
}
