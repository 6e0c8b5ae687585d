"use client";
import { useEffect } from "react";

/** Scroll the time grid so the working day is in view on load. */
export function ScrollToHour({ hour, px }: { hour: number; px: number }) {
  useEffect(() => {
    const el = document.getElementById("dbk-scroll");
    // A little above the hour, so its label (centred on the line) is not cut in half.
    if (el) el.scrollTop = Math.max(0, hour * px - 12);
  }, [hour, px]);
  return null;
}
