/**
 * The services of the demo's made-up shop: who owns each one and who is on call. The log
 * generator, `list_services` and `get_service_owner` all read this one table.
 */
export interface Service {
  readonly name: string;
  /** 1 is customer-facing and pages at night; 3 can wait until morning. */
  readonly tier: 1 | 2 | 3;
  readonly team: string;
  readonly oncall: string;
  readonly slack: string;
  /** Share of the log traffic. */
  readonly traffic: number;
  /** Share of the code-42 errors in the incident of the last hour. */
  readonly incident: number;
}

export const SERVICES: readonly Service[] = [
  {
    name: "gateway",
    tier: 1,
    team: "Edge",
    oncall: "Lars Eriksen",
    slack: "#edge-oncall",
    traffic: 20,
    incident: 2,
  },
  {
    name: "checkout",
    tier: 1,
    team: "Payments Platform",
    oncall: "Dana Whitfield",
    slack: "#checkout-oncall",
    traffic: 12,
    incident: 34,
  },
  {
    name: "payments",
    tier: 1,
    team: "Payments Platform",
    oncall: "Dana Whitfield",
    slack: "#payments-oncall",
    traffic: 9,
    incident: 21,
  },
  {
    name: "inventory",
    tier: 1,
    team: "Fulfilment",
    oncall: "Ravi Menon",
    slack: "#fulfilment-oncall",
    traffic: 10,
    incident: 15,
  },
  {
    name: "auth",
    tier: 1,
    team: "Identity",
    oncall: "Tomás Ortega",
    slack: "#identity-oncall",
    traffic: 11,
    incident: 5,
  },
  {
    name: "search",
    tier: 2,
    team: "Discovery",
    oncall: "Mei Tanaka",
    slack: "#discovery",
    traffic: 14,
    incident: 9,
  },
  {
    name: "shipping",
    tier: 2,
    team: "Fulfilment",
    oncall: "Ravi Menon",
    slack: "#fulfilment-oncall",
    traffic: 7,
    incident: 7,
  },
  {
    name: "accounts",
    tier: 2,
    team: "Identity",
    oncall: "Tomás Ortega",
    slack: "#identity-oncall",
    traffic: 6,
    incident: 3,
  },
  {
    name: "recommendations",
    tier: 3,
    team: "Discovery",
    oncall: "Mei Tanaka",
    slack: "#discovery",
    traffic: 6,
    incident: 2,
  },
  {
    name: "notifications",
    tier: 3,
    team: "Messaging",
    oncall: "Aisha Bello",
    slack: "#messaging",
    traffic: 5,
    incident: 2,
  },
];

export function findService(name: string): Service | undefined {
  const wanted = name.trim().toLowerCase();
  return SERVICES.find((service) => service.name === wanted);
}
