{#- A view. The customers as the source system shows them in this run: each seed row is one
    version of a customer, valid from first_run to last_run, and var('run') picks the versions.
    Run 2: customer 2 has a new email (its updated_at unchanged), customer 3 a new tier and
    updated_at, customer 6 is gone and customer 7 is new. -#}
{{ config(materialized='view') }}
select customer_id, name, email, signup_date, tier, is_active, credit_limit, updated_at
from {{ ref('customers') }}
where {{ var('run') }} between first_run and last_run
