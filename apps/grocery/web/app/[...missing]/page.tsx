import { notFound } from "next/navigation";

export default function Missing() {
  notFound();
}
