{#- Incremental, merge on customer_id, with on_schema_change='append_new_columns': run 2 adds the
    column order_count and merges only the customers with lines in its batch (updating 1, 2 and 3,
    inserting 7); the customers it does not touch keep run 1's values and a NULL order_count. -#}
{{ config(
    materialized='incremental',
    incremental_strategy='merge',
    unique_key='customer_id',
    on_schema_change='append_new_columns'
) }}
select c.customer_id, c.tier,
       cast(coalesce(sum(l.quantity * l.unit_price), 0) as numeric(12,2)) as revenue,
       {{ var('run') }} as computed_in_run
{%- if var('run') >= 2 %},
       count(distinct l.order_id) as order_count
{%- endif %}
from {{ ref('stg_customers') }} as c
left join {{ ref('order_lines') }} as l
  on l.customer_id = c.customer_id and l.load_batch <= {{ var('run') }}
{% if is_incremental() %}
where c.customer_id in (select customer_id from {{ ref('order_lines') }} where load_batch = {{ var('run') }})
{% endif %}
group by c.customer_id, c.tier
