export { AppShell, PageHeader, Card, Alert, type AppShellProps } from "./AppShell";
export { Nav, type NavItem } from "./Nav";
export { Button, ButtonLink, type ButtonVariant } from "./Button";
export { DataTable, Pagination, type Column } from "./Table";
export { Field, Input, MoneyInput, Select, TextArea } from "./Form";
export { formatMoney, parseMoney, formatDate, formatDateTime, nowLocalISO, maskNumber, localeTag, type MoneyOptions } from "./format";
