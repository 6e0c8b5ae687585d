import { Logo } from "@/board/components/Logo";
import { board } from "@/board/lib/app";

export const metadata = { title: "Sign in" };

/** Cairn's sign-in: its logo card around the shared form (@persona/platform/signin). */
export default board.signInPage({
  home: "/board",
  form: { className: "cn-form", notice: { ok: "cn-ok", error: "cn-alert" }, button: "cn-primary" },
  layout: (form) => (
    <div className="cn-login">
      <div className="cn-login-card">
        <div className="cn-login-brand">
          <Logo size={44} />
          <h1>{board.settings.title}</h1>
        </div>
        <p className="cn-muted">Sign in to your team&apos;s board.</p>
        {form}
      </div>
    </div>
  ),
});
