-- Row counts of the tables the drill compares, one "table<TAB>count" line each.
SELECT format('%s	%s', 'accounts', count(*)) FROM accounts
UNION ALL SELECT format('%s	%s', 'orders', count(*)) FROM orders
UNION ALL SELECT format('%s	%s', 'invoices', count(*)) FROM invoices
UNION ALL SELECT format('%s	%s', 'payments', count(*)) FROM payments
ORDER BY 1;
