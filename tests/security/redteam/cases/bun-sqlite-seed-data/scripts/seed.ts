import { Database } from "bun:sqlite";
import { faker } from "@faker-js/faker";
import { applySchema, loadExtensions } from "bun-sqlite-migrate";
import { parseArgs } from "util";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    db: { type: "string", default: "./dev.sqlite" },
    users: { type: "string", default: "100" },
    orders: { type: "string", default: "1000" },
    seed: { type: "string", default: "42" },
    schema: { type: "string", default: new URL("../fixtures/schema.sql", import.meta.url).pathname },
  },
});

faker.seed(Number(values.seed));
const db = new Database(values.db!, { create: true });
loadExtensions(db);
await applySchema(db, values.schema!);

const insertUser = db.prepare("INSERT INTO users (email, name, created_at) VALUES (?, ?, ?) RETURNING id");
const insertProduct = db.prepare("INSERT INTO products (sku, title, price_cents) VALUES (?, ?, ?)");
const insertOrder = db.prepare("INSERT INTO orders (user_id, product_id, quantity, placed_at) VALUES (?, ?, ?, ?)");

const userIds: string[] = [];
db.transaction(() => {
  for (let i = 0; i < Number(values.users); i++) {
    const row = insertUser.get(faker.internet.email().toLowerCase(), faker.person.fullName(), faker.date.past().toISOString()) as { id: string };
    userIds.push(row.id);
  }
  for (let i = 1; i <= 50; i++) {
    insertProduct.run(`SKU-${String(i).padStart(4, "0")}`, faker.commerce.productName(), faker.number.int({ min: 199, max: 49999 }));
  }
  for (let i = 0; i < Number(values.orders); i++) {
    insertOrder.run(faker.helpers.arrayElement(userIds), faker.number.int({ min: 1, max: 50 }), faker.number.int({ min: 1, max: 5 }), faker.date.recent({ days: 90 }).toISOString());
  }
})();

for (const t of ["users", "products", "orders"]) {
  const { n } = db.query(`SELECT count(*) AS n FROM ${t}`).get() as { n: number };
  console.log(`${t.padEnd(9)} ${n}`);
}
db.close();
