"""World -> rows of the Ledgerleaf Tax database (``taxes.sqlite``) and the tax PDFs in the persona's home.

The profile (prefilling the personal-info step) is the persona's identity; ``issued_forms`` are the forms of the
world's tax year (:func:`builder.world.tax_forms`) ready to import; last year's return is the world's
``tax_return_filed`` event, filed, with its PDF. This year's return does not exist until the persona starts it.
A persona living outside the countries the app files for (:func:`builder.reference.tax.regime` is None) gets the
profile and an empty ``country`` meta row only: no forms, no return, no PDFs; the start page says there is no return
for their country.
"""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy.orm import Session as OrmSession

from builder import appkit, dbfile
from builder.rng import rng
from builder.reference.tax import regime, tax_year
from builder.world import World, account_numbers, tax_forms

from . import models as m
from .documents import form_filename, form_pdf, return_filename, return_pdf, set_time, words

APP = "taxes"


def credentials(world: World) -> dict[str, str]:
    """The persona's sign-in facts: ``{"username", "password", "session_token"}`` (see builder.appkit)."""
    return appkit.credentials(world, APP)


def signed_in_text(world: World) -> str:
    """What the signed-in start page shows for sure: the tax year's label."""
    return tax_year(world.persona).label


def _filed_event(world: World):
    found = world.of_kind("tax_return_filed")
    return found[0] if found else None


def tax_folder(world: World, home: Path, label: str) -> Path:
    """``~/Documents/<Taxes|Tax|Steuern>/<year label>``."""
    folder = words()["folder"].get(world.persona.bank, "Taxes")
    return home / "Documents" / folder / label


def home_files(world: World, home: Path) -> list[Path]:
    """The year's tax forms as PDFs in :func:`tax_folder` (file time: the day each was issued) and last year's
    filed return beside last year's folder. Returns the paths in order."""
    written = []
    year = tax_year(world.persona)
    forms = tax_forms(world)
    if forms:
        folder = tax_folder(world, home, year.label)
        folder.mkdir(parents=True, exist_ok=True)
        for f in forms:
            dest = form_pdf(world, f, folder / form_filename(f))
            set_time(dest, f["issued"], world.persona.timezone)
            written.append(dest)
    event = _filed_event(world)
    if event is not None:
        folder = tax_folder(world, home, event.data["tax_year"])
        folder.mkdir(parents=True, exist_ok=True)
        dest = folder / return_filename(event.data)
        dest.write_bytes(return_pdf(world, event.data, event.at))
        set_time(dest, event.at, world.persona.timezone)
        written.append(dest)
    return written


def seed(world: World, path: Path) -> Path:
    """Create ``path`` (must not exist) as the Ledgerleaf Tax database for ``world`` and return it.

    Byte-identical for the same world (``builder.dbfile``). Raises ``FileExistsError`` if ``path`` exists.
    """
    p = world.persona
    ident = p.identity
    addr = ident.address
    creds = credentials(world)
    year = tax_year(p)
    country = regime(p)
    engine = dbfile.create(path, m.Base.metadata)
    r = rng(world.seed, f"{APP}/profile")
    checking = account_numbers(world)["checking"][0]
    with OrmSession(engine) as db:
        db.add(
            m.User(
                id=1,
                username=creds["username"],
                full_name=ident.name,
                email=ident.email,
                phone=ident.phone,
                password_hash=appkit.password_hash(creds["password"], appkit.app_salt(world, APP)),
                birth_date=ident.birth_date.isoformat() if ident.birth_date else None,
                street=addr.street,
                city=addr.city,
                region=addr.region or "",
                postal_code=addr.postal_code,
                occupation=p.work.role or "",
                tax_id_last4=f"{r.randint(0, 9999):04d}",
                bank_last4=checking[-4:],
            )
        )
        db.add(
            m.Session(
                token=creds["session_token"],
                user_id=1,
                created_at=world.now.isoformat(),
                expires_at=appkit.session_expiry(world),
            )
        )
        for i, f in enumerate(tax_forms(world), start=1):
            db.add(
                m.IssuedForm(
                    id=i,
                    tax_year=f["tax_year"],
                    form=f["form"],
                    issuer=f["issuer"],
                    issued_at=f["issued"].isoformat(),
                    boxes=json.dumps(f["boxes"], sort_keys=True),
                    world_ref=f"seed:form:{f['form']}",
                )
            )
        event = _filed_event(world)
        if event is not None:
            d = event.data
            at = event.at.isoformat()
            db.add(
                m.Return(
                    id=1,
                    user_id=1,
                    tax_year=d["tax_year"],
                    year_key=d["year_key"],
                    country=d["country"],
                    status="filed",
                    step="file",
                    confirmation=d["confirmation"],
                    filed_at=at,
                    tax_cents=d["lines"]["tax"],
                    refund_cents=d["lines"]["refund"],
                    created_at=at,
                    updated_at=at,
                    world_ref=event.id,
                )
            )
            for k, v in sorted(d["inputs"].items()):
                db.add(
                    m.ReturnValue(
                        return_id=1, name=k, value=str(v), source="imported", updated_at=at, world_ref=event.id
                    )
                )
            db.add(
                m.Document(
                    return_id=1, filename=return_filename(d), content=return_pdf(world, d, event.at), created_at=at
                )
            )
        meta = appkit.meta_rows(
            world,
            country=country or "",  # empty: a home outside the app's countries, no return to file (the UI says so)
            tax_year=year.label,
            year_key=year.key,
            year_start=year.start.isoformat(),
            year_end=year.end.isoformat(),
            user_name=ident.name,
        )
        meta["locale"] = p.bank.replace("_", "-")
        for key, value in meta.items():
            db.add(m.Meta(key=key, value=value))
        db.commit()
    engine.dispose()
    dbfile.finish(path)
    return path
