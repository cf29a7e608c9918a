{#- A table, rebuilt whole on each run, with its descriptions persisted as comments. -#}
{{ config(materialized='table', persist_docs={'relation': true, 'columns': true}) }}
with lines as (
    select customer_id, order_id, order_date, shipped_at, quantity * unit_price as line_amount
    from {{ ref('order_lines') }}
    where load_batch <= {{ var('run') }}
)
select c.customer_id, c.name, c.tier, c.is_active, c.signup_date, c.credit_limit,
       count(distinct l.order_id) as order_count,
       cast(coalesce(sum(l.line_amount), 0) as numeric(12,2)) as total_amount,
       min(l.order_date) as first_order_date,
       max(l.shipped_at) as last_shipped_at
from {{ ref('stg_customers') }} as c
left join lines as l on l.customer_id = c.customer_id
group by c.customer_id, c.name, c.tier, c.is_active, c.signup_date, c.credit_limit
