{#- Incremental, append: each run adds the lines of the batches it has not loaded yet, marked
    with the run that loaded them (a rebuild would mark every line with the last run). -#}
{{ config(materialized='incremental', incremental_strategy='append') }}
select order_id, line_no, customer_id, sku, quantity, unit_price, order_date, shipped_at, is_gift, load_batch,
       {{ var('run') }} as loaded_in_run
from {{ ref('order_lines') }}
where load_batch <= {{ var('run') }}
{% if is_incremental() %}
  and load_batch > (select max(load_batch) from {{ this }})
{% endif %}
