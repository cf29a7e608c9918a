{#- Incremental, delete+insert on a two-column key: a later run recomputes, whole, the days of
    the customers that received lines in that run's batch (a late line on order 1002 changes an
    existing day, the others are new days); the other days keep the run that computed them. -#}
{{ config(
    materialized='incremental',
    incremental_strategy='delete+insert',
    unique_key=['customer_id', 'order_date']
) }}
select l.customer_id, l.order_date,
       count(*) as line_count,
       sum(l.quantity) as units,
       cast(sum(l.quantity * l.unit_price) as numeric(12,2)) as amount,
       bool_or(l.is_gift) as has_gift,
       {{ var('run') }} as computed_in_run
from {{ ref('order_lines') }} as l
where l.load_batch <= {{ var('run') }}
{% if is_incremental() %}
  and exists (
      select 1
      from {{ ref('order_lines') }} as b
      where b.load_batch = {{ var('run') }}
        and b.customer_id = l.customer_id
        and b.order_date = l.order_date
  )
{% endif %}
group by l.customer_id, l.order_date
