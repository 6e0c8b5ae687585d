"""SQLAlchemy schema of Guildline's database: the single source of truth for ``network.sqlite``.

The Next.js app in ``web/`` opens this file with better-sqlite3 and follows these tables. Times are
local wall-clock ISO 8601 strings in the persona's time zone (``YYYY-MM-DDTHH:MM:SS``); months of
experience are ``YYYY-MM``; money is integer cents in ``jobs.currency``.

Provenance (what task checks rely on): ``world_ref`` holds the world fact a row projects (an event
id, or ``<career person id>`` / ``exp-<n>`` / ``skill:<name>`` for parts of the ``career_profile``
event). Rows the app writes (a post, a reaction, a comment, a message, a saved job, a new experience
entry or skill, an invitation sent, an application) have ``world_ref IS NULL``; edits of seeded rows set ``updated_at`` (NULL when
seeded). An invitation the persona answers gets ``status`` accepted / declined / withdrawn and
``responded_at``; accepting sets the person's ``connected_on`` to that day.
"""

from __future__ import annotations

from sqlalchemy import ForeignKey, Integer, LargeBinary, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from builder import appkit


class Base(DeclarativeBase):
    """Declarative base of the Guildline schema."""


class User(appkit.UserRow, Base):
    """The persona, who signs in. ``password_hash`` is ``scrypt$<salt hex>$<hash hex>``."""

    email: Mapped[str] = mapped_column(String)
    phone: Mapped[str] = mapped_column(String, default="", doc="the persona's mobile number, as the spec writes it")


class Session(appkit.SessionRow, Base):
    """A signed-in browser session; the cookie ``gl_session`` carries ``token``."""


class Profile(Base):
    """The persona's profile (one row, ``id`` 1): headline (≤ 220 chars), about (≤ 2,600), location, pronouns (≤ 30,
    "" when not shown)."""

    __tablename__ = "profile"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    headline: Mapped[str] = mapped_column(String)
    about: Mapped[str] = mapped_column(Text)
    location: Mapped[str] = mapped_column(String)
    pronouns: Mapped[str] = mapped_column(String, default="")
    updated_at: Mapped[str | None] = mapped_column(String)


class Experience(Base):
    """A job on the persona's profile; ``end_month`` NULL: current. Listed by ``start_month`` descending."""

    __tablename__ = "experience"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    title: Mapped[str] = mapped_column(String)
    company: Mapped[str] = mapped_column(String)
    location: Mapped[str] = mapped_column(String)
    start_month: Mapped[str] = mapped_column(String)
    end_month: Mapped[str | None] = mapped_column(String)
    description: Mapped[str] = mapped_column(Text, default="")
    updated_at: Mapped[str | None] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)


class Education(Base):
    """A school on the persona's profile."""

    __tablename__ = "education"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    school: Mapped[str] = mapped_column(String)
    degree: Mapped[str] = mapped_column(String)
    start_year: Mapped[int] = mapped_column(Integer)
    end_year: Mapped[int] = mapped_column(Integer)


class Skill(Base):
    """A skill on the persona's profile (names unique, compared case-insensitively by the app)."""

    __tablename__ = "skills"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String, unique=True)
    position: Mapped[int] = mapped_column(Integer)
    world_ref: Mapped[str | None] = mapped_column(String)


class Person(Base):
    """Someone on Guildline: a connection (``connected_on`` set) or a second-degree member (NULL).

    ``relation``: colleague / contact / former_colleague / industry / second / recruiter;
    ``mutual_json`` a JSON list of connection names; ``card_json`` the reply engine's card.
    """

    __tablename__ = "people"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String)
    headline: Mapped[str] = mapped_column(String)
    title: Mapped[str] = mapped_column(String)
    company: Mapped[str] = mapped_column(String)
    location: Mapped[str] = mapped_column(String)
    relation: Mapped[str] = mapped_column(String)
    connected_on: Mapped[str | None] = mapped_column(String, doc="YYYY-MM-DD")
    started: Mapped[str] = mapped_column(String, doc="YYYY-MM: start of the current job")
    previous_title: Mapped[str | None] = mapped_column(String)
    previous_company: Mapped[str | None] = mapped_column(String)
    mutual_json: Mapped[str] = mapped_column(Text, default="[]")
    card_json: Mapped[str] = mapped_column(Text)
    world_ref: Mapped[str] = mapped_column(String, unique=True)


class Invitation(Base):
    """A connection invitation: ``direction`` incoming / sent; ``status`` pending / accepted / declined / withdrawn."""

    __tablename__ = "invitations"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"))
    direction: Mapped[str] = mapped_column(String)
    note: Mapped[str] = mapped_column(Text, default="")
    sent_at: Mapped[str] = mapped_column(String)
    status: Mapped[str] = mapped_column(String, default="pending")
    responded_at: Mapped[str | None] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)


class Post(Base):
    """A feed post; ``author_id`` NULL: the persona's."""

    __tablename__ = "posts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    author_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"))
    kind: Mapped[str] = mapped_column(String)
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[str] = mapped_column(String, index=True)
    world_ref: Mapped[str | None] = mapped_column(String)


class Reaction(Base):
    """A reaction (like / celebrate / support / love / insightful) on a post; ``person_id`` NULL: the persona's."""

    __tablename__ = "reactions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    post_id: Mapped[int] = mapped_column(ForeignKey("posts.id"), index=True)
    person_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"))
    reaction: Mapped[str] = mapped_column(String)
    created_at: Mapped[str] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)
    __table_args__ = (UniqueConstraint("post_id", "person_id"),)


class Comment(Base):
    """A comment on a post; ``person_id`` NULL: the persona's."""

    __tablename__ = "comments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    post_id: Mapped[int] = mapped_column(ForeignKey("posts.id"), index=True)
    person_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"))
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[str] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)


class Job(Base):
    """A posting on the job board (``slug`` the world's ``job-<n>``); ``skills_json`` a JSON list."""

    __tablename__ = "jobs"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slug: Mapped[str] = mapped_column(String, unique=True)
    title: Mapped[str] = mapped_column(String)
    company: Mapped[str] = mapped_column(String)
    location: Mapped[str] = mapped_column(String)
    workplace: Mapped[str] = mapped_column(String)
    salary_min_cents: Mapped[int] = mapped_column(Integer)
    salary_max_cents: Mapped[int] = mapped_column(Integer)
    currency: Mapped[str] = mapped_column(String)
    summary: Mapped[str] = mapped_column(Text)
    skills_json: Mapped[str] = mapped_column(Text)
    posted_at: Mapped[str] = mapped_column(String)
    world_ref: Mapped[str] = mapped_column(String)


class SavedJob(Base):
    """A job the persona saved; ``world_ref`` the posting's event when the world saved it, NULL when saved in the app."""

    __tablename__ = "saved_jobs"
    job_id: Mapped[int] = mapped_column(ForeignKey("jobs.id"), primary_key=True)
    saved_at: Mapped[str] = mapped_column(String)
    world_ref: Mapped[str | None] = mapped_column(String)


class Application(Base):
    """An Easy Apply application the persona sent (none are seeded): one per job. ``resume`` the uploaded file's bytes
    (PDF, DOCX or DOC, at most 2 MB), ``resume_sha256`` their SHA-256 in hex, ``resume_name`` the file's name as
    uploaded; ``years`` the answer to "years of work experience"; ``status`` submitted."""

    __tablename__ = "applications"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    job_id: Mapped[int] = mapped_column(ForeignKey("jobs.id"), unique=True)
    email: Mapped[str] = mapped_column(String)
    phone: Mapped[str] = mapped_column(String)
    resume_name: Mapped[str] = mapped_column(String)
    resume: Mapped[bytes] = mapped_column(LargeBinary)
    resume_sha256: Mapped[str] = mapped_column(String)
    years: Mapped[int] = mapped_column(Integer)
    submitted_at: Mapped[str] = mapped_column(String)
    status: Mapped[str] = mapped_column(String, default="submitted")
    world_ref: Mapped[str | None] = mapped_column(String)


class Thread(Base):
    """A message thread with one person (a recruiter or a connection); ``job_id`` the posting it is about."""

    __tablename__ = "threads"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), unique=True)
    job_id: Mapped[int | None] = mapped_column(ForeignKey("jobs.id"))
    world_ref: Mapped[str | None] = mapped_column(String)


class Message(Base):
    """A message; ``sender_id`` NULL: the persona's. Visible once ``sent_at <= now`` (a reply lands later)."""

    __tablename__ = "messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    thread_id: Mapped[int] = mapped_column(ForeignKey("threads.id"), index=True)
    sender_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"))
    body: Mapped[str] = mapped_column(Text)
    sent_at: Mapped[str] = mapped_column(String)
    read_at: Mapped[str | None] = mapped_column(String)
    reply_to_id: Mapped[int | None] = mapped_column(ForeignKey("messages.id"))
    world_ref: Mapped[str | None] = mapped_column(String)


class Meta(appkit.MetaRow, Base):
    """Key/value facts: ``as_of``, ``now``, ``timezone``, ``locale``, ``currency``, ``seed``, ``user_name``."""
