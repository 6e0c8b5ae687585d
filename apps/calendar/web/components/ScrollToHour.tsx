"use client";
import { useEffect } from "react";

/** Scroll the time grid so the working day is in view on load. */
export function ScrollToHour({ hour, px }: { hour: number; px: number }) {
  useEffect(() => {
    const el = document.getElementById("dbk-scroll");
    if (el) el.scrollTop = hour * px;
  }, [hour, px]);
  return null;
}
